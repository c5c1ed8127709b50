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
    let sigmas = [("pixel_sigma", pixelSigma), ("ball_pixel_sigma", ballPixelSigma)]
    for (key, value) in sigmas where !(value.isFinite && value >= 0) {
      throw InputError(file: "simulation", location: .key("noise.\(key)"), "must be ≥ 0, got \(value)")
    }
    let rates = [
      ("miss_rate", missRate), ("swap_rate", swapRate), ("outlier_rate", outlierRate),
      ("ball_miss_rate", ballMissRate), ("false_ball_rate", falseBallRate),
    ]
    for (key, value) in rates where !(value >= 0 && value <= 1) {
      throw InputError(file: "simulation", location: .key("noise.\(key)"), "must lie in [0, 1], got \(value)")
    }
  }
}

import MatchSceneCore
