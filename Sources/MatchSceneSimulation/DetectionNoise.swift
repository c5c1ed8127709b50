/// The faults a simulated 2D detector makes. Every rate is a probability in [0, 1] and every fault can be
/// switched off by setting it to 0 (`DetectionNoise.none` switches all of them off).
public struct DetectionNoise: Sendable, Equatable {
  /// Standard deviation of the isotropic Gaussian noise on every keypoint, pixels per axis.
  public var pixelSigma: Double
  /// Probability that a keypoint is not detected (written as `Keypoint2D.missing`).
  public var missRate: Double
  /// Probability that a person's left and right keypoints are all swapped in one camera frame.
  public var swapRate: Double
  /// Probability that a keypoint is a gross outlier: displaced 30–150 px with a plausible confidence
  /// (0.45–0.85).
  public var outlierRate: Double
  /// Whether a third person (track `B1`) walks around outside the playing area.
  public var bystander: Bool
  /// Standard deviation of the ball detection noise, pixels per axis.
  public var ballPixelSigma: Double
  /// Probability that a visible ball is not detected in a camera frame.
  public var ballMissRate: Double
  /// Probability, per camera frame, of a false ball detection elsewhere in the image (near a player's
  /// foot or anywhere); it replaces the true detection when there is one (one detection per frame).
  public var falseBallRate: Double

  // Harder faults (`--faults hard`). Each is off at its default, and then the detections are bit for bit
  // those of a simulator without it: these faults draw from their own random stream
  // (`RandomStream.detectionFaults`), never from the detector's.

  /// Standard deviation of a fixed offset per (camera, keypoint), pixels per axis: a detector trained on
  /// other annotations puts a joint a few pixels off its true place, always the same way in one camera.
  /// 0 = none.
  public var jointBiasPx: Double = 0
  /// AR(1) coefficient ρ ∈ [0, 1) of the keypoint noise over consecutive frames (per camera, person and
  /// keypoint): eₜ = ρ eₜ₋₁ + √(1 − ρ²) σ wₜ, so the marginal standard deviation stays `pixelSigma`. Real
  /// detectors jitter slowly, not white (0 = white noise, as before).
  public var temporalCorrelation: Double = 0
  /// Degrees of freedom ν (> 2) of a Student-t for the noise innovations wₜ (scaled to unit variance:
  /// the same σ, heavier tails); nil = Gaussian.
  public var tailDegreesOfFreedom: Double?
  /// Probability that a keypoint hidden in a camera — its ray passes through a torso (the person's own
  /// or another one's) nearer to the camera — is not detected. 0 = occlusion ignored.
  public var occlusionDropRate: Double = 0

  /// Whether any harder fault is on (then the detector uses the slower path that keeps noise state).
  var hasHarderFaults: Bool {
    jointBiasPx > 0 || temporalCorrelation > 0 || tailDegreesOfFreedom != nil || occlusionDropRate > 0
  }

  /// The harder simulator's detector (`matchscene simulate --faults hard`): the default faults plus a
  /// 2 px bias per joint and camera, AR(1) noise with ρ = 0.6 and Student-t (ν = 4) innovations, and 60 %
  /// of occluded keypoints dropped. Its rig adds calibration errors (`CalibrationError.hard`).
  public static let hard: DetectionNoise = {
    var noise = DetectionNoise()
    noise.jointBiasPx = 2
    noise.temporalCorrelation = 0.6
    noise.tailDegreesOfFreedom = 4
    noise.occlusionDropRate = 0.6
    return noise
  }()

  /// Every noise scale (`pixelSigma`, `ballPixelSigma`, `jointBiasPx`) times `factor`; rates unchanged.
  public func scaled(by factor: Double) -> DetectionNoise {
    var noise = self
    noise.pixelSigma *= factor
    noise.ballPixelSigma *= factor
    noise.jointBiasPx *= factor
    return noise
  }

  public init(
    pixelSigma: Double = 1.5, missRate: Double = 0.03, swapRate: Double = 0.01, outlierRate: Double = 0.01,
    bystander: Bool = true, ballPixelSigma: Double = 1.0, ballMissRate: Double = 0.08,
    falseBallRate: Double = 0.02
  ) {
    self.pixelSigma = pixelSigma
    self.missRate = missRate
    self.swapRate = swapRate
    self.outlierRate = outlierRate
    self.bystander = bystander
    self.ballPixelSigma = ballPixelSigma
    self.ballMissRate = ballMissRate
    self.falseBallRate = falseBallRate
  }

  /// The same pixel noise (`pixelSigma`, `ballPixelSigma`) with every fault switched off: no missed
  /// keypoint or ball, no left/right swap, no outlier, no false ball, no bystander.
  public var withoutFaults: DetectionNoise {
    DetectionNoise(
      pixelSigma: pixelSigma, missRate: 0, swapRate: 0, outlierRate: 0, bystander: false,
      ballPixelSigma: ballPixelSigma, ballMissRate: 0, falseBallRate: 0)
  }

  /// A perfect detector: exact projections, nothing missed, no bystander.
  public static let none = DetectionNoise(
    pixelSigma: 0, missRate: 0, swapRate: 0, outlierRate: 0, bystander: false, ballPixelSigma: 0,
    ballMissRate: 0, falseBallRate: 0)

  /// Checks that sigmas are finite and non-negative and rates lie in [0, 1].
  /// - Throws: `InputError` naming the offending setting.
  public func validate() throws {
    let sigmas = [("pixel_sigma", pixelSigma), ("ball_pixel_sigma", ballPixelSigma), ("joint_bias_px", jointBiasPx)]
    for (key, value) in sigmas where !(value.isFinite && value >= 0) {
      throw InputError(file: "simulation", location: .key("noise.\(key)"), "must be ≥ 0, got \(value)")
    }
    let rates = [
      ("miss_rate", missRate), ("swap_rate", swapRate), ("outlier_rate", outlierRate),
      ("ball_miss_rate", ballMissRate), ("false_ball_rate", falseBallRate), ("occlusion_drop_rate", occlusionDropRate),
    ]
    for (key, value) in rates where !(value >= 0 && value <= 1) {
      throw InputError(file: "simulation", location: .key("noise.\(key)"), "must lie in [0, 1], got \(value)")
    }
    guard temporalCorrelation >= 0, temporalCorrelation < 1 else {
      throw InputError(
        file: "simulation", location: .key("noise.temporal_correlation"), "must lie in [0, 1), got \(temporalCorrelation)")
    }
    if let nu = tailDegreesOfFreedom, !(nu.isFinite && nu > 2) {
      throw InputError(
        file: "simulation", location: .key("noise.tail_degrees_of_freedom"), "must be a finite number > 2, got \(nu)")
    }
  }
}

import MatchSceneCore
