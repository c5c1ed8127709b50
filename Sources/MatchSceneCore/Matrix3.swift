/// A 3×3 matrix of doubles, stored row-major (`m[3 * row + column]`).
public struct Matrix3: Sendable, Equatable, Hashable {
  /// Row-major entries.
  public var m: [Double]

  /// Creates a matrix from nine row-major entries. - Precondition: `rowMajor.count == 9`.
  public init(rowMajor: [Double]) {
    precondition(rowMajor.count == 9, "Matrix3 needs 9 entries")
    m = rowMajor
  }

  public static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

  /// The matrix with rows `a`, `b`, `c` (a rotation's rows are the new frame's axes in the old one).
  public init(rows a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) {
    m = [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z]
  }

  /// Row `i` (0, 1 or 2).
  public func row(_ i: Int) -> SIMD3<Double> { SIMD3(m[3 * i], m[3 * i + 1], m[3 * i + 2]) }

  public subscript(row: Int, column: Int) -> Double {
    get { m[3 * row + column] }
    set { m[3 * row + column] = newValue }
  }

  public var transposed: Matrix3 {
    Matrix3(rowMajor: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
  }

  public var determinant: Double {
    m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
      + m[2] * (m[3] * m[7] - m[4] * m[6])
  }

  public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
    var r = [Double](repeating: 0, count: 9)
    for i in 0..<3 {
      for j in 0..<3 {
        r[3 * i + j] = a.m[3 * i] * b.m[j] + a.m[3 * i + 1] * b.m[3 + j] + a.m[3 * i + 2] * b.m[6 + j]
      }
    }
    return Matrix3(rowMajor: r)
  }

  public static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(
      a.m[0] * v.x + a.m[1] * v.y + a.m[2] * v.z,
      a.m[3] * v.x + a.m[4] * v.y + a.m[5] * v.z,
      a.m[6] * v.x + a.m[7] * v.y + a.m[8] * v.z)
  }

  /// Largest absolute entry of `self · selfᵀ − I` and `|det − 1|`: how far this is from a rotation.
  public var rotationDefect: Double {
    let p = self * transposed
    var worst = abs(determinant - 1)
    for i in 0..<3 { for j in 0..<3 { worst = max(worst, abs(p[i, j] - (i == j ? 1 : 0))) } }
    return worst
  }

  /// Whether this is a proper rotation within `tolerance` (orthonormal, determinant +1).
  public func isRotation(tolerance: Double = 1e-6) -> Bool {
    m.allSatisfy(\.isFinite) && rotationDefect <= tolerance
  }

  /// Rotation matrix of a Rodrigues (axis · angle) vector, as OpenCV's `cv::Rodrigues`.
  /// A zero vector gives the identity.
  public static func rodrigues(_ r: SIMD3<Double>) -> Matrix3 {
    let theta = (r * r).sum().squareRoot()
    if theta < 1e-15 { return .identity }
    let k = r / theta
    let c = cos(theta), s = sin(theta), v = 1 - c
    return Matrix3(rowMajor: [
      c + k.x * k.x * v, k.x * k.y * v - k.z * s, k.x * k.z * v + k.y * s,
      k.y * k.x * v + k.z * s, c + k.y * k.y * v, k.y * k.z * v - k.x * s,
      k.z * k.x * v - k.y * s, k.z * k.y * v + k.x * s, c + k.z * k.z * v,
    ])
  }

  /// The Rodrigues vector of this rotation (inverse of `rodrigues(_:)`), angle in [0, π].
  public var rodriguesVector: SIMD3<Double> {
    // atan2 of sine and cosine stays accurate near 0 and π, where acos of the trace loses half the digits.
    let cosTheta = max(-1, min(1, (m[0] + m[4] + m[8] - 1) / 2))
    let sinTheta = length(SIMD3(m[7] - m[5], m[2] - m[6], m[3] - m[1])) / 2
    let theta = atan2(sinTheta, cosTheta)
    if theta < 1e-12 { return SIMD3(0, 0, 0) }
    if theta > 2.5 {
      // Near π the antisymmetric part vanishes. The symmetric part minus cos θ · I equals
      // (1 − cos θ) k kᵀ exactly; its largest column gives the axis, the antisymmetric part its sign.
      let b = [m[0] - cosTheta, (m[1] + m[3]) / 2, (m[2] + m[6]) / 2,
               (m[1] + m[3]) / 2, m[4] - cosTheta, (m[5] + m[7]) / 2,
               (m[2] + m[6]) / 2, (m[5] + m[7]) / 2, m[8] - cosTheta]
      let columns = (0..<3).map { SIMD3(b[$0], b[3 + $0], b[6 + $0]) }
      var axis = normalize(columns.max { length($0) < length($1) }!)
      let antisymmetric = SIMD3(m[7] - m[5], m[2] - m[6], m[3] - m[1])
      if dot(axis, antisymmetric) < 0 { axis = -axis }
      return axis * theta
    }
    let w = SIMD3(m[7] - m[5], m[2] - m[6], m[3] - m[1]) / (2 * sin(theta))
    return w * theta
  }

  /// Rotation that turns `from` onto `to` about their common normal (both non-zero).
  public static func rotation(from: SIMD3<Double>, to: SIMD3<Double>) -> Matrix3 {
    let a = from / (from * from).sum().squareRoot()
    let b = to / (to * to).sum().squareRoot()
    let axis = cross(a, b)
    let s = (axis * axis).sum().squareRoot()
    let c = (a * b).sum()
    if s < 1e-12 {
      if c > 0 { return .identity }
      // Opposite: rotate π about any axis perpendicular to a.
      var perp = cross(a, SIMD3(1, 0, 0))
      if (perp * perp).sum() < 1e-6 { perp = cross(a, SIMD3(0, 1, 0)) }
      return rodrigues(perp / (perp * perp).sum().squareRoot() * Double.pi)
    }
    return rodrigues(axis / s * atan2(s, c))
  }
}

/// Cross product of two 3-vectors.
@inlinable public func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
  SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// Dot product of two 3-vectors.
@inlinable public func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

/// Euclidean length of a 3-vector.
@inlinable public func length(_ a: SIMD3<Double>) -> Double { (a * a).sum().squareRoot() }

/// `a` scaled to unit length; `a` itself when its length is zero.
@inlinable public func normalize(_ a: SIMD3<Double>) -> SIMD3<Double> {
  let l = length(a)
  return l > 0 ? a / l : a
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
