/// Savitzky–Golay smoothing (Savitzky & Golay, Analytical Chemistry 36(8), 1964): each sample becomes
/// the value at its centre of the least-squares polynomial of degree `degree` over `2·halfWindow + 1`
/// samples. Zero phase. The ends use the polynomial of the first and last full window.
public struct SavitzkyGolay: Sendable {
  public let halfWindow: Int
  public let degree: Int

  /// - Returns: nil unless 0 ≤ degree < 2·halfWindow + 1.
  public init?(halfWindow: Int, degree: Int) {
    guard halfWindow >= 1, degree >= 0, degree < 2 * halfWindow + 1 else { return nil }
    self.halfWindow = halfWindow
    self.degree = degree
  }

  /// Weights that evaluate the window's least-squares polynomial at offset `at` (−m…m).
  func weights(at t: Double) -> [Double] {
    let m = halfWindow, p = degree + 1
    // Normal matrix VᵀV of the Vandermonde matrix over offsets −m…m, solved by Gauss–Jordan.
    var a = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
    for i in -m...m {
      for r in 0..<p { for c in 0..<p { a[r][c] += pow(Double(i), Double(r + c)) } }
    }
    // Solve (VᵀV) z = e(t) where e(t) = (1, t, t², …); weights w_i = Σ_r z_r · i^r.
    var rhs = (0..<p).map { pow(t, Double($0)) }
    for col in 0..<p {
      let pivot = (col..<p).max { abs(a[$0][col]) < abs(a[$1][col]) }!
      a.swapAt(col, pivot)
      rhs.swapAt(col, pivot)
      for r in 0..<p where r != col {
        let f = a[r][col] / a[col][col]
        for c in col..<p { a[r][c] -= f * a[col][c] }
        rhs[r] -= f * rhs[col]
      }
    }
    let z = (0..<p).map { rhs[$0] / a[$0][$0] }
    return (-m...m).map { i in (0..<p).reduce(0) { $0 + z[$1] * pow(Double(i), Double($1)) } }
  }

  /// Smooths a gap-free signal. Shorter than one window: returned unchanged.
  public func smooth(_ x: [Double]) -> [Double] {
    let m = halfWindow
    guard x.count >= 2 * m + 1 else { return x }
    let centre = weights(at: 0)
    var y = x
    for i in m..<(x.count - m) {
      var s = 0.0
      for k in 0...(2 * m) { s += centre[k] * x[i - m + k] }
      y[i] = s
    }
    for i in 0..<m {
      let head = weights(at: Double(i - m)), tail = weights(at: Double(m - i))
      var s = 0.0, e = 0.0
      for k in 0...(2 * m) {
        s += head[k] * x[k]
        e += tail[k] * x[x.count - 1 - 2 * m + k]
      }
      y[i] = s
      y[x.count - 1 - i] = e
    }
    return y
  }
}

#if canImport(Glibc)
  import Glibc
#endif
