import MatchSceneCore
import MatchSceneGeometry

/// Fills frames where only one camera saw the ball, from that camera's ray and the ball's motion.
///
/// Triangulation needs two views; a detector that misses the ball in one of the two cameras that see
/// it leaves a hole. Where the ball is tracked on both sides of such a frame along a smooth path (no
/// contact in between), a quadratic in time fitted to the neighbouring positions predicts where the
/// ball is; the one-view detection nearest that prediction's projection (within `inlierPx`) fixes
/// the direction, and the ball is put at the point of its viewing ray closest to the prediction —
/// the prediction only supplies the depth along the ray. This is the temporal completion of
/// multi-camera ball trackers (e.g. Owens, Harris & Stennett, "Hawk-eye tennis system", IEE VIE
/// 2003, which track the ball through frames where a camera loses it).
enum BallCompletion {
  /// Neighbouring frames used for the prediction, each side.
  static let window = 6
  /// The fitted path must pass its neighbours within this RMS, metres (larger: a contact inside).
  static let maxFitRMS = 0.02

  /// - Parameters:
  ///   - balls: per frame (index 0 = `firstFrame`), the triangulated ball or nil.
  ///   - candidates: per frame, per camera, that camera's ball detections.
  /// - Returns: `balls` with one-view completions added (`viewCount` 1, `meanReprojectionPx` the
  ///   distance in pixels between the prediction's projection and the detection used).
  static func fill(
    _ balls: [TriangulatedPoint?], candidates: (Int) -> [[BallDetection2D]], cameras: [Camera], inlierPx: Double
  ) throws -> [TriangulatedPoint?] {
    var out = balls
    for i in balls.indices where balls[i] == nil {
      let before = (max(0, i - window)..<i).filter { balls[$0] != nil }
      let after = ((i + 1)..<min(balls.count, i + window + 1)).filter { balls[$0] != nil }
      guard before.count >= 2, after.count >= 2 else { continue }
      let neighbours = before + after
      guard let predicted = quadraticPrediction(at: i, frames: neighbours, positions: neighbours.map { balls[$0]!.position })
      else { continue }
      let seen = candidates(i)
      var best: (camera: Int, pixel: SIMD2<Double>, px: Double)?
      for (c, camera) in cameras.enumerated() {
        guard let q = camera.project(predicted) else { continue }
        for d in seen[c] where d.confidence > 0 {
          let p = SIMD2(d.x, d.y)
          let e = ((p - q) * (p - q)).sum().squareRoot()
          if e <= inlierPx, best == nil || e < best!.px { best = (c, p, e) }
        }
      }
      guard let best, let n = try cameras[best.camera].undistort([best.pixel])[0] else { continue }
      let camera = cameras[best.camera]
      let direction = normalize(camera.worldFromCam.rotation * SIMD3(n.x, n.y, 1))
      let depth = dot(predicted - camera.center, direction)
      guard depth > 0 else { continue }
      out[i] = TriangulatedPoint(position: camera.center + depth * direction, meanReprojectionPx: best.px, viewCount: 1)
    }
    return out
  }

  /// The least-squares quadratic in time through `positions` (per axis) evaluated at `frame`; nil when
  /// it misses its points by more than `maxFitRMS` (a bounce or a stroke between them).
  static func quadraticPrediction(at frame: Int, frames: [Int], positions: [SIMD3<Double>]) -> SIMD3<Double>? {
    // Normal equations of x(t) = a + b t + c t², t in frames relative to `frame`.
    var ata = [Double](repeating: 0, count: 9)
    var atb = [SIMD3<Double>](repeating: .zero, count: 3)
    for (f, p) in zip(frames, positions) {
      let t = Double(f - frame)
      let row = [1, t, t * t]
      for r in 0..<3 {
        for c in 0..<3 { ata[3 * r + c] += row[r] * row[c] }
        atb[r] += row[r] * p
      }
    }
    // Cramer's rule on the symmetric 3×3 system, the three axes at once.
    func det(_ a: [Double]) -> Double {
      a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6])
    }
    let d = det(ata)
    guard abs(d) > 1e-9 else { return nil }
    var coefficients = [SIMD3<Double>](repeating: .zero, count: 3)
    for k in 0..<3 {
      for axis in 0..<3 {
        var a = ata
        for r in 0..<3 { a[3 * r + k] = atb[r][axis] }
        coefficients[k][axis] = det(a) / d
      }
    }
    var squared = 0.0
    for (f, p) in zip(frames, positions) {
      let t = Double(f - frame)
      let d = coefficients[0] + t * coefficients[1] + t * t * coefficients[2] - p
      squared += dot(d, d)
    }
    guard (squared / Double(frames.count)).squareRoot() <= maxFitRMS else { return nil }
    return coefficients[0]
  }
}
