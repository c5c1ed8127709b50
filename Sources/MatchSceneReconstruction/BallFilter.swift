import MatchSceneCore
import MatchSceneGeometry

/// Removes ball positions that no neighbouring frame supports: a real ball moves continuously, a
/// false detection that happened to agree in two views does not.
enum BallFilter {
  /// Keeps frame i when some frame within ±`window` holds a ball reachable at `maxBallSpeed` (plus a
  /// small slack for noise). Isolated detections are dropped.
  static func plausible(_ balls: [TriangulatedPoint?], fps: Double, options: ReconstructionOptions, window: Int = 3) -> [TriangulatedPoint?] {
    var out = balls
    for i in balls.indices {
      guard let b = balls[i] else { continue }
      var supported = false
      for j in max(0, i - window)...min(balls.count - 1, i + window) where j != i {
        guard let other = balls[j] else { continue }
        let reach = options.maxBallSpeed * Double(abs(j - i)) / fps + 0.05
        if length(other.position - b.position) <= reach {
          supported = true
          break
        }
      }
      if !supported { out[i] = nil }
    }
    return out
  }
}
