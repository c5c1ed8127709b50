import MatchSceneCore

/// A similarity transform of 3D space, x' = s · R · x + t.
public struct Similarity3: Sendable, Equatable {
  public var scale: Double
  public var rotation: Matrix3
  public var translation: SIMD3<Double>

  public init(scale: Double, rotation: Matrix3, translation: SIMD3<Double>) {
    self.scale = scale
    self.rotation = rotation
    self.translation = translation
  }

  public static let identity = Similarity3(scale: 1, rotation: .identity, translation: .zero)

  public func apply(_ x: SIMD3<Double>) -> SIMD3<Double> { scale * (rotation * x) + translation }

  /// `camera` seen from the transformed world: the same image of every transformed point. With
  /// x_cam = R_c · x + t_c and x = Rᵀ(x' − t) / s, the camera frame scaled by s (which leaves every
  /// projection as it is) gives camFromWorld' = (R_c Rᵀ, s t_c − R_c Rᵀ t).
  public func apply(_ camera: Camera) -> Camera {
    var moved = camera
    let rotationOut = camera.camFromWorld.rotation * rotation.transposed
    moved.camFromWorld = RigidTransform(
      rotation: rotationOut, translation: scale * camera.camFromWorld.translation - rotationOut * translation)
    return moved
  }

  /// The least-squares similarity taking `source` onto `target` (weights ≥ 0), by Horn's closed form
  /// with unit quaternions (B. K. P. Horn, "Closed-form solution of absolute orientation using unit
  /// quaternions", JOSA A 4(4), 1987, §4–5): the rotation is the eigenvector of the largest eigenvalue of
  /// the 4 × 4 matrix N built from the centred cross-covariance; the scale is Umeyama's
  /// Σ w b'·R a' / Σ w |a'|² (S. Umeyama, IEEE PAMI 13(4), 1991), the one that minimises
  /// Σ w |b − (s R a + t)|².
  /// - Returns: nil for fewer than three pairs, non-positive total weight, or points all at one place.
  public static func fit(from source: [SIMD3<Double>], to target: [SIMD3<Double>], weights: [Double]? = nil) -> Similarity3? {
    guard source.count == target.count, source.count >= 3 else { return nil }
    let w = weights ?? Array(repeating: 1, count: source.count)
    let total = w.reduce(0, +)
    guard total > 0 else { return nil }
    var ca = SIMD3<Double>.zero
    var cb = SIMD3<Double>.zero
    for i in source.indices {
      ca += w[i] * source[i]
      cb += w[i] * target[i]
    }
    ca /= total
    cb /= total
    // M = Σ w a' b'ᵀ (row-major sxx sxy sxz …).
    var s = [Double](repeating: 0, count: 9)
    var spread = 0.0
    for i in source.indices {
      let a = source[i] - ca
      let b = target[i] - cb
      spread += w[i] * dot(a, a)
      for r in 0..<3 { for c in 0..<3 { s[3 * r + c] += w[i] * a[r] * b[c] } }
    }
    guard spread > 1e-18 else { return nil }
    let (sxx, sxy, sxz, syx, syy, syz, szx, szy, szz) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8])
    let n: [[Double]] = [
      [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
      [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
      [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
      [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ]
    let q = largestEigenvector(n)
    let rotation = rotationMatrix(quaternion: q)
    var cross = 0.0
    for i in source.indices { cross += w[i] * dot(target[i] - cb, rotation * (source[i] - ca)) }
    let scale = cross / spread
    guard scale.isFinite, scale > 0 else { return nil }
    return Similarity3(scale: scale, rotation: rotation, translation: cb - scale * (rotation * ca))
  }

  /// The unit eigenvector of the largest eigenvalue of a symmetric 4 × 4 matrix, by cyclic Jacobi
  /// rotations (Golub & Van Loan, Matrix Computations, 4th ed., §8.5).
  static func largestEigenvector(_ input: [[Double]]) -> [Double] {
    var a = input
    var v: [[Double]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } }
    for _ in 0..<50 {
      var off = 0.0
      for p in 0..<4 { for q in (p + 1)..<4 { off += a[p][q] * a[p][q] } }
      if off < 1e-30 { break }
      for p in 0..<3 {
        for q in (p + 1)..<4 where abs(a[p][q]) > 1e-300 {
          let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
          let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
          let c = 1 / (t * t + 1).squareRoot()
          let sn = t * c
          for k in 0..<4 {
            let akp = a[k][p]
            let akq = a[k][q]
            a[k][p] = c * akp - sn * akq
            a[k][q] = sn * akp + c * akq
          }
          for k in 0..<4 {
            let apk = a[p][k]
            let aqk = a[q][k]
            a[p][k] = c * apk - sn * aqk
            a[q][k] = sn * apk + c * aqk
          }
          for k in 0..<4 {
            let vkp = v[k][p]
            let vkq = v[k][q]
            v[k][p] = c * vkp - sn * vkq
            v[k][q] = sn * vkp + c * vkq
          }
        }
      }
    }
    let best = (0..<4).max { a[$0][$0] < a[$1][$1] }!
    let q = (0..<4).map { v[$0][best] }
    let norm = q.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return q.map { $0 / norm }
  }

  /// The rotation of the unit quaternion (w, x, y, z) (Horn 1987, §3.4).
  static func rotationMatrix(quaternion q: [Double]) -> Matrix3 {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3])
    return Matrix3(rowMajor: [
      w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
      2 * (y * x + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
      2 * (z * x - w * y), 2 * (z * y + w * x), w * w - x * x - y * y + z * z,
    ])
  }
}

extension Similarity3 {
  /// The similarity that puts the cameras `moved` back where `given` has them, in the least-squares sense
  /// over the cameras `anchors`: each anchor contributes its optical centre and the points at distance
  /// `lever` along its three axes, so that orientations count as much as positions (a turn of θ moves
  /// them by `lever` · θ, as it moves the scene `lever` away in the image). This fixes the 7-dof gauge
  /// freedom of a bundle adjustment (Triggs et al. 2000, §9) to the given calibration's world frame.
  /// - Returns: nil when the anchors give fewer than three distinct points.
  public static func aligning(_ moved: [Camera], onto given: [Camera], anchors: [Int], lever: Double) -> Similarity3? {
    var source: [SIMD3<Double>] = []
    var target: [SIMD3<Double>] = []
    for c in anchors where moved.indices.contains(c) && given.indices.contains(c) {
      for (camera, list) in [(moved[c], 0), (given[c], 1)] {
        let r = camera.camFromWorld.rotation
        let points = [camera.center] + (0..<3).map { camera.center + lever * r.row($0) }
        if list == 0 { source += points } else { target += points }
      }
    }
    return fit(from: source, to: target)
  }
}
