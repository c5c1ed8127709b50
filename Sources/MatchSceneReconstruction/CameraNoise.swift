import Foundation
import MatchSceneCore

/// Each camera's noise scale, estimated from the match by Helmert's variance component estimation
/// (Förstner 1979; Koch 1999, §3.6), made robust: σ² = Σ|r|² / Σ(2 − h) over the views of the camera
/// (`PoseTriangulation.correctedSquaredErrors`: every view of the reconstructed people's joints, used or
/// not, with its leverage h), after leaving out views whose |r|² / (2 − h) exceeds 9 × a first, median
/// estimate (mislabelled joints, other people, left/right swaps). Iterated with the weights it gives
/// (`Reconstructor.viewSelection`), it converges to each camera's own noise whatever the start: the
/// leverage keeps a heavily weighted camera from talking its scale down. A camera whose calibration is
/// off shows a large scale: its views are then weighed down and gated wider rather than thrown out.
public enum CameraNoise {
  /// One view's squared reprojection error (pixels²) and its degrees of freedom (2 − leverage).
  public struct ViewError: Sendable, Equatable {
    public var squared: Double
    public var freedom: Double
    public init(squared: Double, freedom: Double) {
      self.squared = squared
      self.freedom = freedom
    }
  }

  /// ln 2: the median of χ²₂ / 2, the first estimate's scale.
  static let halfChiSquare2Median = log(2.0)
  /// Views whose |r|² / (2 − h) exceeds this many first estimates of σ² are outliers (3σ).
  static let outlierRatio = 9.0
  /// Fewest views a camera needs for its own estimate; below it takes the median of the others.
  static let minViews = 30
  /// Smallest scale returned, pixels: keeps noise-free (synthetic) input from a zero gate.
  static let floorPx = 0.05

  /// - Parameter views: per camera, its views' errors.
  /// - Returns: per camera, σ in pixels; nil when no camera has `minViews` views.
  public static func scales(views: [[ViewError]]) -> [Double]? {
    let own = views.map { scale(of: $0, minViews: minViews) }
    let known = own.compactMap { $0 }
    guard !known.isEmpty else { return nil }
    let fallback = median(known)
    return own.map { $0 ?? fallback }
  }

  /// σ in pixels of one group of views (a camera's, or one person's in one camera), by the robust
  /// estimate described above; nil with fewer than `minViews` views.
  public static func scale(of views: [ViewError], minViews: Int) -> Double? {
    guard views.count >= max(1, minViews) else { return nil }
    let first = median(views.map { $0.squared / $0.freedom }) / halfChiSquare2Median
    let inliers = views.filter { $0.squared <= outlierRatio * first * $0.freedom }
    let freedom = inliers.reduce(0) { $0 + $1.freedom }
    guard freedom > 0 else { return max(floorPx, first.squareRoot()) }
    // Truncating χ²₂ at 9σ² keeps 98.9 % of its mass and 95 % of its mean: undo that bias.
    let sigma2 = inliers.reduce(0) { $0 + $1.squared } / freedom / truncatedMeanShare
    return max(floorPx, sigma2.squareRoot())
  }

  /// E[X; X ≤ 9] / E[X] for X = χ²₂ / 2 ~ Exp(1) truncated at `outlierRatio`: 1 − (1 + 9) e⁻⁹.
  static let truncatedMeanShare = 1 - (1 + outlierRatio) * exp(-outlierRatio)
}
