/// Fills short gaps of a sampled signal with cubic Hermite segments whose end slopes come from the
/// neighbouring samples (finite differences), so position and velocity stay continuous across the
/// gap (Fritsch & Carlson, SIAM J. Numer. Anal. 17(2), 1980, without the monotonicity limiter).
public enum GapFilling {
  /// Fills runs of at most `maxGap` missing samples that have present samples on both sides; longer
  /// runs and missing ends stay nil.
  public static func fill(_ x: [Double?], maxGap: Int) -> [Double?] {
    var y = x
    var i = 0
    while i < x.count {
      guard x[i] == nil else { i += 1; continue }
      var j = i
      while j < x.count, x[j] == nil { j += 1 }
      // Gap is [i, j).
      if i > 0, j < x.count, j - i <= maxGap, let p0 = x[i - 1], let p1 = x[j] {
        let span = Double(j - (i - 1))
        let m0 = i >= 2 ? (x[i - 2].map { p0 - $0 } ?? (p1 - p0) / span) : (p1 - p0) / span
        let m1 = j + 1 < x.count ? (x[j + 1].map { $0 - p1 } ?? (p1 - p0) / span) : (p1 - p0) / span
        for k in i..<j {
          let t = Double(k - (i - 1)) / span
          let t2 = t * t, t3 = t2 * t
          y[k] = (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * span * m0 + (-2 * t3 + 3 * t2) * p1
            + (t3 - t2) * span * m1
        }
      }
      i = j
    }
    return y
  }
}
