import Foundation
import MatchSceneCore

/// Each camera's noise scale, estimated from the match: the robust spread of the leverage-corrected
/// reprojection errors of every view (used or not) of the reconstructed people's joints
/// (`PoseTriangulation.correctedSquaredErrors`).
///
/// With isotropic Gaussian pixel noise of scale σ a 2D error's squared length is σ²·χ²₂, whose median is
/// σ²·2 ln 2, so σ = √(median / (2 ln 2)) — a median, hence unmoved by up to half the views being
/// outliers (mislabelled joints, other people). The leverage correction keeps a heavily weighted camera's
/// estimate from shrinking towards zero as its views pull the points onto themselves. A camera whose
/// calibration is off shows a large scale: its views are then weighed down and gated wider rather than
/// thrown out (issue 11 §2).
public enum CameraNoise {
  /// 2 ln 2: the median of a χ² distribution with two degrees of freedom.
  static let chiSquare2Median = 2 * log(2.0)
  /// Fewest views a camera needs for its own estimate; below it takes the median of the others.
  static let minViews = 30
  /// Smallest scale returned, pixels: keeps noise-free (synthetic) input from a zero gate.
  static let floorPx = 0.05

  /// - Parameter squaredErrors: per camera, leverage-corrected squared errors (pixels²) of its views.
  /// - Returns: per camera, σ in pixels; nil when no camera has `minViews` views.
  public static func scales(squaredErrors: [[Double]]) -> [Double]? {
    let own = squaredErrors.map { e -> Double? in
      guard e.count >= minViews else { return nil }
      return max(floorPx, (median(e) / chiSquare2Median).squareRoot())
    }
    let known = own.compactMap { $0 }
    guard !known.isEmpty else { return nil }
    let fallback = median(known)
    return own.map { $0 ?? fallback }
  }

  static func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
  }
}
