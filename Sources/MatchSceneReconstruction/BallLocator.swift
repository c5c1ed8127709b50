import MatchSceneCore
import MatchSceneGeometry

/// The ball found in one frame.
struct BallEstimate: Sendable {
  var point: TriangulatedPoint
}

/// Finds the ball in one frame from every camera's candidates, false detections included.
///
/// Hypotheses come from every pair of candidates in two cameras (a minimal sample, as in RANSAC —
/// Fischler & Bolles, CACM 1981 — but enumerated, since a frame has only a few candidates). Each
/// hypothesis collects, in every other camera, the candidate nearest its projection if within
/// `ballInlierPx`; the hypothesis with most views (then lowest error, then closest to the previous
/// ball position) wins and is re-triangulated from its views.
enum BallLocator {
  static func locate(
    candidates: [[BallDetection2D]], cameras: [Camera], triangulator: Triangulator,
    options: ReconstructionOptions
  ) throws -> BallEstimate? {
    let m = cameras.count
    let seen = (0..<m).filter { !candidates[$0].isEmpty }
    guard seen.count >= 2 else { return nil }
    // Fast path: exactly one candidate per camera → one robust triangulation.
    if seen.allSatisfy({ candidates[$0].count == 1 }) {
      if let estimate = try solve(selection: (0..<m).map { candidates[$0].isEmpty ? nil : 0 }, candidates, triangulator),
        estimate.point.viewCount >= options.minBallViews
      {
        return estimate
      }
    }
    // Enumerate two-view hypotheses in one batch.
    var pairs: [(Int, Int, Int, Int)] = []
    var obs: [Keypoint2D] = []
    for (ia, ca) in seen.enumerated() {
      for cb in seen[(ia + 1)...] {
        for (a, da) in candidates[ca].enumerated() {
          for (b, db) in candidates[cb].enumerated() {
            var row = [Keypoint2D](repeating: .missing, count: m)
            row[ca] = Keypoint2D(x: da.x, y: da.y, confidence: max(da.confidence, 0.5))
            row[cb] = Keypoint2D(x: db.x, y: db.y, confidence: max(db.confidence, 0.5))
            obs += row
            pairs.append((ca, a, cb, b))
          }
        }
      }
    }
    let batch = try triangulator.triangulate(obs)
    var best: (views: Int, error: Double, selection: [Int?])? = nil
    for (h, pair) in pairs.enumerated() {
      guard let point = batch.point(h) else { continue }
      var selection = [Int?](repeating: nil, count: m)
      selection[pair.0] = pair.1
      selection[pair.2] = pair.3
      var views = 2, error = point.meanReprojectionPx * 2
      for c in seen where c != pair.0 && c != pair.2 {
        guard let q = cameras[c].project(point.position) else { continue }
        var nearest: (Int, Double)? = nil
        for (i, d) in candidates[c].enumerated() {
          let e = ((SIMD2(d.x, d.y) - q) * (SIMD2(d.x, d.y) - q)).sum().squareRoot()
          if e <= options.ballInlierPx, nearest == nil || e < nearest!.1 { nearest = (i, e) }
        }
        if let nearest {
          selection[c] = nearest.0
          views += 1
          error += nearest.1
        }
      }
      let meanError = error / Double(views)
      if best == nil || views > best!.views || (views == best!.views && meanError < best!.error) {
        best = (views, meanError, selection)
      }
    }
    guard let best, best.views >= options.minBallViews else { return nil }
    return try solve(selection: best.selection, candidates, triangulator)
  }

  /// Triangulates the chosen candidate of each camera (nil = none).
  static func solve(selection: [Int?], _ candidates: [[BallDetection2D]], _ triangulator: Triangulator) throws -> BallEstimate? {
    let row = selection.enumerated().map { c, i -> Keypoint2D in
      guard let i else { return .missing }
      let d = candidates[c][i]
      return Keypoint2D(x: d.x, y: d.y, confidence: max(d.confidence, 0.5))
    }
    guard let point = try triangulator.triangulate(row).point(0) else { return nil }
    return BallEstimate(point: point)
  }
}
