internal import CTriangulation

/// Settings of `Triangulator`. Defaults suit 2D keypoint detectors on HD footage; checked by
/// `Triangulator.init` before any work starts.
public struct TriangulationOptions: Sendable, Equatable {
  /// Observations below this confidence are ignored.
  public var minConfidence: Double = 0.1
  /// Weight each view by its confidence (true) or equally.
  public var confidenceWeighting = true
  /// Smallest angle between two views' rays for a point to be triangulable, radians.
  public var minRayAngle: Double = 1e-4
  /// Reject views by reprojection error and refine with Levenberg–Marquardt + Huber loss.
  public var robust = false
  /// Robust mode: a view whose reprojection error exceeds this (pixels) is rejected.
  public var maxReprojectionPx: Double = 8
  /// Robust mode: Huber loss scale, pixels.
  public var huberPx: Double = 2
  /// Robust mode: the fewest views a point may keep.
  public var minViews = 2
  /// Robust mode: Levenberg–Marquardt iterations.
  public var maxIterations = 5
  /// Robust mode with per-camera noise scales (`Triangulator(cameras:options:noiseScalesPx:)`): a view is
  /// rejected while its error exceeds this many of its camera's noise scales (instead of
  /// `maxReprojectionPx`).
  public var gateSigmas: Double = 5
  /// With per-camera noise scales: weigh each view by 1 / its camera's noise scale (maximum likelihood
  /// under independent Gaussian noise), or only gate in noise units and weigh pixels equally.
  public var noiseWeighting = true

  public init() {}

  /// Robust defaults (view rejection at 8 px, Huber 2 px, 5 LM iterations).
  public static var robust: TriangulationOptions {
    var o = TriangulationOptions()
    o.robust = true
    return o
  }

  var shim: mstri_options {
    var o = mstri_default_options()
    o.min_confidence = minConfidence
    o.confidence_weighting = confidenceWeighting ? 1 : 0
    o.min_ray_angle = minRayAngle
    o.robust = robust ? 1 : 0
    o.max_reprojection_px = maxReprojectionPx
    o.huber_px = huberPx
    o.min_views = Int32(clamping: minViews)
    o.max_iterations = Int32(clamping: maxIterations)
    o.gate_sigmas = gateSigmas
    o.noise_weighting = noiseWeighting ? 1 : 0
    return o
  }
}
