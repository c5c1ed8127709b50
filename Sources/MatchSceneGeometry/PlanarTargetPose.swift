import MatchSceneCore

/// The pose of a known planar rectangle (a table top, a court's lines) from its corners clicked in one
/// or more calibrated camera images.
///
/// Each camera's corners give a first pose by the plane-to-image homography (direct linear transform,
/// Hartley & Zisserman §4.1) decomposed with the camera's intrinsics (Zhang, "A flexible new technique
/// for camera calibration", PAMI 2000, §3.1); the pose is then refined by Gauss–Newton on the
/// reprojection error of every corner in every camera through the full lens model. Corners are given
/// in order around the rectangle; which corner comes first, and the direction, are found by trying the
/// eight assignments and keeping the one that reprojects best (the long sides are told from the short
/// ones by the rectangle's shape; its two ends cannot be told apart).
public enum PlanarTargetPose {
  /// One camera's clicks: the rectangle's four corners in the image, in order around it (pixels).
  public struct Clicks: Sendable {
    public var camera: Camera
    public var corners: [SIMD2<Double>]
    public init(camera: Camera, corners: [SIMD2<Double>]) {
      self.camera = camera
      self.corners = corners
    }
  }

  /// The rectangle's pose and how well it fits.
  public struct Result: Sendable {
    /// Maps the rectangle's frame (origin at its centre, x along its length, y across, z up out of
    /// its face) into the world.
    public var worldFromTarget: RigidTransform
    /// Root-mean-square reprojection error of the corners, pixels.
    public var rmsPx: Double
  }

  /// - Parameters:
  ///   - clicks: at least one camera with exactly four corners.
  ///   - length: the rectangle's long side, metres; `width` its short side.
  /// - Returns: nil when no assignment gives a pose in front of the cameras.
  public static func locate(_ clicks: [Clicks], length: Double, width: Double) -> Result? {
    guard !clicks.isEmpty, clicks.allSatisfy({ $0.corners.count == 4 }), length > 0, width > 0 else { return nil }
    let model = [SIMD3(-length / 2, -width / 2, 0), SIMD3(length / 2, -width / 2, 0), SIMD3(length / 2, width / 2, 0), SIMD3(-length / 2, width / 2, 0)]
    var best: Result?
    // The same assignment of clicked to model corners in every camera: corner k of every camera is the
    // same physical corner (the user clicks them in the same order).
    for shift in 0..<4 {
      for reversed in [false, true] {
        let order = (0..<4).map { k in reversed ? (shift - k + 4) % 4 : (shift + k) % 4 }
        let assigned = clicks.map { c in Clicks(camera: c.camera, corners: order.map { c.corners[$0] }) }
        guard let first = initialPose(assigned[0], model: model) else { continue }
        let refined = refine(first, clicks: assigned, model: model)
        // The face the cameras see is the top: a mirrored assignment fits as well with z pointing down.
        let normal = refined.worldFromTarget.rotation * SIMD3(0, 0, 1)
        let centre = refined.worldFromTarget.translation
        guard clicks.allSatisfy({ dot($0.camera.worldFromCam.translation - centre, normal) > 0 }) else { continue }
        if refined.rmsPx < (best?.rmsPx ?? .infinity) { best = refined }
      }
    }
    return best
  }

  /// worldFromTarget from one camera's homography.
  static func initialPose(_ clicks: Clicks, model: [SIMD3<Double>]) -> RigidTransform? {
    let camera = clicks.camera
    // Normalised image coordinates (the lens's distortion is left to the refinement).
    let normalised = clicks.corners.map { SIMD2(($0.x - camera.cx - camera.skew * ($0.y - camera.cy) / camera.fy) / camera.fx, ($0.y - camera.cy) / camera.fy) }
    // Homography with h33 = 1 from four correspondences: an 8 × 8 linear system.
    var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
    for k in 0..<4 {
      let (x, y) = (model[k].x, model[k].y), (u, v) = (normalised[k].x, normalised[k].y)
      a[2 * k] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
      a[2 * k + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
    }
    guard let h = solve(a) else { return nil }
    let h1 = SIMD3(h[0], h[3], h[6]), h2 = SIMD3(h[1], h[4], h[7]), h3 = SIMD3(h[2], h[5], 1)
    var scale = 2 / (MatchSceneCore.length(h1) + MatchSceneCore.length(h2))
    if h3.z * scale < 0 { scale = -scale }  // the target in front of the camera
    let r1 = normalize(h1 * scale)
    var r2 = h2 * scale
    r2 = normalize(r2 - dot(r2, r1) * r1)
    let r3 = cross(r1, r2)
    let camFromTarget = RigidTransform(
      rotation: Matrix3(rows: SIMD3(r1.x, r2.x, r3.x), SIMD3(r1.y, r2.y, r3.y), SIMD3(r1.z, r2.z, r3.z)),
      translation: h3 * scale)
    return camera.camFromWorld.inverse * camFromTarget
  }

  /// Gauss–Newton on the six pose parameters (a rotation increment and a translation), numerical
  /// Jacobian, a few iterations from a good start.
  static func refine(_ start: RigidTransform, clicks: [Clicks], model: [SIMD3<Double>]) -> Result {
    func residuals(_ pose: RigidTransform) -> [Double]? {
      var r: [Double] = []
      for c in clicks {
        for (k, corner) in c.corners.enumerated() {
          guard let p = c.camera.project(pose.apply(model[k])) else { return nil }
          r += [p.x - corner.x, p.y - corner.y]
        }
      }
      return r
    }
    func moved(_ pose: RigidTransform, _ d: [Double]) -> RigidTransform {
      RigidTransform(
        rotation: Matrix3.rodrigues(SIMD3(d[0], d[1], d[2])) * pose.rotation,
        translation: pose.translation + SIMD3(d[3], d[4], d[5]))
    }
    var pose = start
    guard var r = residuals(pose) else { return Result(worldFromTarget: start, rmsPx: .infinity) }
    for _ in 0..<30 {
      // J (n × 6) by central differences; solve (JᵀJ + μI) δ = −Jᵀr.
      var j = [[Double]](repeating: [Double](repeating: 0, count: 6), count: r.count)
      for p in 0..<6 {
        let step = p < 3 ? 1e-6 : 1e-6
        var plus = [Double](repeating: 0, count: 6), minus = plus
        plus[p] = step
        minus[p] = -step
        guard let a = residuals(moved(pose, plus)), let b = residuals(moved(pose, minus)) else { break }
        for i in r.indices { j[i][p] = (a[i] - b[i]) / (2 * step) }
      }
      var normal = [[Double]](repeating: [Double](repeating: 0, count: 7), count: 6)
      for p in 0..<6 {
        for q in 0..<6 { normal[p][q] = r.indices.reduce(0) { $0 + j[$1][p] * j[$1][q] } }
        normal[p][p] *= 1 + 1e-9
        normal[p][6] = -r.indices.reduce(0) { $0 + j[$1][p] * r[$1] }
      }
      guard let delta = solve(normal) else { break }
      let candidate = moved(pose, delta)
      guard let next = residuals(candidate), sumOfSquares(next) <= sumOfSquares(r) else { break }
      pose = candidate
      let improvement = sumOfSquares(r) - sumOfSquares(next)
      r = next
      if improvement < 1e-12 { break }
    }
    return Result(worldFromTarget: pose, rmsPx: (sumOfSquares(r) / Double(max(1, r.count / 2))).squareRoot())
  }

  static func sumOfSquares(_ r: [Double]) -> Double { r.reduce(0) { $0 + $1 * $1 } }

  /// Solves the n × (n + 1) augmented system by Gaussian elimination with partial pivoting; nil when
  /// singular.
  static func solve(_ augmented: [[Double]]) -> [Double]? {
    var m = augmented
    let n = m.count
    for col in 0..<n {
      guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-14 else { return nil }
      m.swapAt(col, pivot)
      for row in (col + 1)..<n {
        let f = m[row][col] / m[col][col]
        for k in col...n { m[row][k] -= f * m[col][k] }
      }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
      var s = m[row][n]
      for k in (row + 1)..<n { s -= m[row][k] * x[k] }
      x[row] = s / m[row][row]
    }
    return x
  }
}
