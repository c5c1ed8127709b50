import MatchSceneCore
import MatchSceneGeometry

/// Noise scales per person and camera: a camera's scale (`CameraNoise`) is pooled over everyone it
/// saw, so when one person's keypoints are near-exact (a marker-based or re-projected person, a
/// close-up) the pooled scale is theirs, and a gate of a few of those scales throws out most of a
/// noisier person's views in that camera. Each detection's own scale is estimated from its joints'
/// leverage-corrected errors by the same robust variance-component estimate (`CameraNoise.scale(of:)`:
/// Förstner 1979; Koch 1999, §3.6); a person clearly noisier than the pooled scales in most of its
/// cameras is triangulated in its own, so one person's clean points never gate another's views. It is
/// the per-instance scale that COCO's object keypoint similarity gives each person (Lin et al.,
/// "Microsoft COCO", 2014: s·kᵢ), measured rather than assumed from the person's size. A scale is only
/// ever widened: a clean person keeps its camera's gate, which already keeps its outliers out.
enum PersonNoise {
  /// Fewest views (joints) a person's detection needs in a camera for its own scale.
  static let minViews = 8
  /// Fewest cameras with a scale of the person's own for a widening. Two views of a point leave one
  /// degree of freedom that the two share (the epipolar distance): their errors cannot tell which
  /// camera is the noisier, nor a noisy person from a wrong match of two.
  static let minCameras = 3
  /// A person's scales are widened when its noise factor exceeds this. With 8 views (about 14 degrees
  /// of freedom) a variance 4 × the true one has odds below 10⁻⁶ by chance, so people who share their
  /// cameras' noise keep their scales.
  static let widening = 2.0

  /// The views of one batch grouped by person and camera, as `CameraNoise.ViewError`s.
  ///
  /// A used view's degrees of freedom are 2 − h, its leverage h approximated by its share of the
  /// point's three: h = 3 w / Σ w over the used views (w = confidence / σ² as the kernel weighs it);
  /// an unused view has 2. This is the trace of the hat matrix spread by weight (exact when every
  /// view's Jacobian carries the same information), cheap enough for every frame.
  /// - Parameters:
  ///   - observations: point-major (`p * cameras + c`), person-major points (`person * keypoints + joint`).
  ///   - fallback: the points `batch` failed, triangulated without a gate (plain weighted DLT), and
  ///     where each point of `batch` is in it (-1: not there): a gate of a few pooled scales can leave a
  ///     noisy person no consistent pair of views at all, and the person's noise must still be seen.
  ///   - cameraScales: the scales the batch was triangulated with, pixels.
  /// - Returns: per person, per camera, the views' errors.
  static func viewErrors(
    batch robust: TriangulationBatch, fallback: (batch: TriangulationBatch, index: [Int])? = nil, observations: [Keypoint2D],
    keypoints k: Int, cameraScales: [Double], options: TriangulationOptions
  ) -> [[[CameraNoise.ViewError]]] {
    let m = robust.cameraCount
    let people = k > 0 ? robust.pointCount / k : 0
    var out = Array(repeating: Array(repeating: [CameraNoise.ViewError](), count: m), count: people)
    var weights = [Double](repeating: 0, count: m)
    for p in 0..<(people * k) {
      let (batch, q): (TriangulationBatch, Int)
      if robust.status(p) == .ok {
        (batch, q) = (robust, p)
      } else if let fallback, fallback.index[p] >= 0, fallback.batch.status(fallback.index[p]) == .ok {
        (batch, q) = (fallback.batch, fallback.index[p])
      } else {
        continue
      }
      for c in 0..<m { weights[c] = 0 }
      var usedWeight = 0.0, usedCount = 0
      for c in 0..<m {
        let o = observations[p * m + c]
        guard o.isDetected, o.confidence >= options.minConfidence, o.confidence > 0,
          batch.reprojectionPx(point: q, camera: c) != nil
        else { continue }
        let sigma = options.noiseWeighting ? cameraScales[c] : 1
        weights[c] = (options.confidenceWeighting ? o.confidence : 1) / (sigma * sigma)
        if batch.isUsed(point: q, camera: c) { usedWeight += weights[c]; usedCount += 1 }
      }
      guard usedCount >= 2, usedWeight > 0 else { continue }
      for c in 0..<m where weights[c] > 0 {
        guard let error = batch.reprojectionPx(point: q, camera: c) else { continue }
        let freedom = batch.isUsed(point: q, camera: c) ? 2 - 3 * weights[c] / usedWeight : 2
        guard freedom >= 0.05 else { continue }
        out[p / k][c].append(.init(squared: error * error, freedom: freedom))
      }
    }
    return out
  }

  /// Per person, the per-camera scales to triangulate it with; nil for a person who keeps its cameras'.
  ///
  /// The person's noise factor κ is the lower median, over the cameras where it has `minViews` views,
  /// of its own scale (`CameraNoise.scale(of:minViews:)`) over the camera's; it needs `minCameras` of them.
  /// When κ exceeds `widening` — the person is noisier than its cameras' pooled scales in most of them —
  /// each camera's scale is widened to the person's own there (κ times it where the person has too few
  /// views), at most 2κ times the camera's: one camera holding a wrong or mirrored detection of the
  /// person neither triggers a widening (the lower median ignores it) nor opens its own gate wide.
  static func scales(_ errors: [[[CameraNoise.ViewError]]], cameraScales: [Double]) -> [[Double]?] {
    errors.map { perCamera in
      let ratios = perCamera.enumerated().map { c, views in
        CameraNoise.scale(of: views, minViews: minViews).map { $0 / cameraScales[c] }
      }
      let known = ratios.compactMap { $0 }.sorted()
      guard known.count >= minCameras else { return nil }
      let kappa = known[(known.count - 1) / 2]
      guard kappa > widening else { return nil }
      return cameraScales.indices.map { c in cameraScales[c] * max(1, min(ratios[c] ?? kappa, 2 * kappa)) }
    }
  }
}
