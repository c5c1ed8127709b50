/// Hampel outlier filter (Hampel, "The influence curve and its role in robust estimation", JASA 1974;
/// Pearson, "Outliers in process modeling and identification", IEEE TCST 2002): a sample further than
/// `threshold` scaled MADs from the median of its window is an outlier.
public struct HampelFilter: Sendable {
  /// Samples on each side of the centre.
  public var halfWindow: Int
  /// In units of the MAD scaled to a normal standard deviation (× 1.4826).
  public var threshold: Double
  /// Absolute floor on the deviation a sample must exceed (units of the signal), so that a nearly
  /// constant window does not flag noise-level wiggles.
  public var floor: Double

  public init(halfWindow: Int = 5, threshold: Double = 3, floor: Double = 0) {
    self.halfWindow = halfWindow
    self.threshold = threshold
    self.floor = floor
  }

  /// Indices of outliers among the present (non-nil) samples; windows skip missing samples.
  public func outliers(_ x: [Double?]) -> [Int] {
    var out: [Int] = []
    for i in x.indices {
      guard let xi = x[i] else { continue }
      let window = (max(0, i - halfWindow)...min(x.count - 1, i + halfWindow)).compactMap { x[$0] }
      guard window.count >= 3 else { continue }
      let med = Self.median(window)
      let mad = 1.4826 * Self.median(window.map { abs($0 - med) })
      if abs(xi - med) > max(threshold * mad, floor) { out.append(i) }
    }
    return out
  }

  static func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
  }
}
