/// Robust statistics of small samples, for references built from a player's own strokes.
public enum FormStatistics {
  /// The median (mean of the two middle values for an even count); NaN for none.
  public static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted(), m = s.count / 2
    return s.count % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m])
  }

  /// 1.4826 × the median absolute deviation from the median: the standard deviation of a normal
  /// sample, unmoved by a few outliers (Rousseeuw & Croux, "Alternatives to the median absolute
  /// deviation", JASA 88 (1993) 1273–1283). NaN for fewer than two values.
  public static func robustSD(_ values: [Double]) -> Double {
    guard values.count >= 2 else { return .nan }
    let m = median(values)
    return 1.4826 * median(values.map { abs($0 - m) })
  }
}
