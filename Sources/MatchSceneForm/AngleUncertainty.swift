import MatchSceneCore

/// Propagates keypoint position uncertainty to the angles (first-order, Taylor; e.g. JCGM 100:2008
/// "Guide to the expression of uncertainty in measurement" §5.1.2, uncorrelated inputs): each angle's
/// variance is Σ_joints σ_j² · |∂angle/∂p_j|², the gradient taken by forward differences.
///
/// A keypoint's σ_j (metres, per axis) comes from its reprojection error: with n views the mean
/// residual r of a least-squares point is about σ_px · √((2n − 3)/(2n)) (2n measurements, 3 unknowns),
/// and the point's error about σ_px · (metres per pixel at the player) / √n, so
/// σ_j ≈ r · mpp · √(2/(2n − 3)). Samples filled in by the time analysis (not measured) or with fewer
/// than 2 views take twice the track's median σ.
public struct AngleUncertainty: Sendable {
  /// Metres per pixel at the players (camera distance / focal length in pixels).
  public var metresPerPixel: Double
  public init(metresPerPixel: Double) { self.metresPerPixel = metresPerPixel }

  /// σ of one measured keypoint, metres; nil when it cannot be told.
  public func sigma(reprojectionPx r: Double, views n: Int) -> Double? {
    guard n >= 2, r >= 0, r.isFinite else { return nil }
    return r * metresPerPixel * (2 / Double(2 * n - 3)).squareRoot()
  }

  /// Standard deviation of every `FormAngle` at the 12 points `points` (`BodyPoints.roles` order), degrees,
  /// given each keypoint's σ (metres) and the angles `base` there; only the parts of
  /// `AngleKinematics` a keypoint enters are recomputed.
  func angleSD(_ points: [SIMD3<Double>], sigmas: [Double], base: [Double], scratch: inout [Double]) -> [Double] {
    let h = 1e-5
    var variance = [Double](repeating: 0, count: base.count)
    var p = points
    for j in 0..<12 where sigmas[j] > 0 {
      let s2 = sigmas[j] * sigmas[j]
      for axis in 0..<3 {
        p[j][axis] += h
        for part in Self.parts[j] {
          AngleKinematics.fill(part, p, into: &scratch)
          for a in part.angles {
            var d = scratch[a] - base[a]
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            let g = d / h
            variance[a] += s2 * g * g
          }
        }
        p[j] = points[j]
      }
    }
    return variance.map { $0.squareRoot() }
  }

  /// The parts each keypoint enters.
  static let parts: [[AngleKinematics.Part]] = (0..<12).map { j in AngleKinematics.Part.allCases.filter { $0.keypoints.contains(j) } }
}
