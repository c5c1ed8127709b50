/// Unit quaternions in glTF order (x, y, z, w) (glTF 2.0 §3.5.2: node `rotation`).
public enum Quaternion {
  /// The unit quaternion of rotation matrix `m`, by Shepperd's method (S. W. Shepperd, "Quaternion from
  /// rotation matrix", J. Guidance and Control 1(3), 1978): pick the largest of w, x, y, z from the
  /// trace/diagonal for numerical stability. The sign is chosen so that w ≥ 0.
  /// - Precondition: `m` is a rotation.
  public static func fromMatrix(_ m: Matrix3) -> SIMD4<Double> {
    let trace = m[0, 0] + m[1, 1] + m[2, 2]
    var q: SIMD4<Double>
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2  // 4w
      q = SIMD4((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
    } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
      let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2  // 4x
      q = SIMD4(s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s)
    } else if m[1, 1] > m[2, 2] {
      let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2  // 4y
      q = SIMD4((m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s)
    } else {
      let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2  // 4z
      q = SIMD4((m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s)
    }
    if q.w < 0 { q = -q }
    return normalized(q)
  }

  /// The rotation matrix of unit quaternion `q` (x, y, z, w).
  public static func toMatrix(_ q: SIMD4<Double>) -> Matrix3 {
    let (x, y, z, w) = (q.x, q.y, q.z, q.w)
    return Matrix3(rowMajor: [
      1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
      2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
      2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
    ])
  }

  /// The shortest-arc rotation turning unit vector `a` onto unit vector `b`: q = (a × b, 1 + a·b), normalised.
  /// Opposite vectors turn by π about an axis perpendicular to `a`.
  public static func rotation(from a: SIMD3<Double>, to b: SIMD3<Double>) -> SIMD4<Double> {
    let w = 1 + dot(a, b)
    if w < 1e-12 {
      var axis = cross(a, SIMD3(1, 0, 0))
      if length(axis) < 1e-6 { axis = cross(a, SIMD3(0, 1, 0)) }
      axis = normalize(axis)
      return SIMD4(axis.x, axis.y, axis.z, 0)
    }
    let v = cross(a, b)
    return normalized(SIMD4(v.x, v.y, v.z, w))
  }

  public static func normalized(_ q: SIMD4<Double>) -> SIMD4<Double> {
    let n = (q * q).sum().squareRoot()
    return n > 0 ? q / n : SIMD4(0, 0, 0, 1)
  }

  /// `q` as Float32, normalised again in Float32 so its stored length is 1 to within a few ulps.
  public static func float32(_ q: SIMD4<Double>) -> SIMD4<Float> {
    let n = normalized(q)
    return SIMD4<Float>(Float(n.x), Float(n.y), Float(n.z), Float(n.w))
  }
}
