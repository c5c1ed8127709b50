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
  /// Each window is sorted in a stack buffer (insertion sort: a window is a dozen samples), allocating
  /// nothing per sample.
  public func outliers(_ x: [Double?]) -> [Int] {
    var out: [Int] = []
    let width = 2 * max(0, halfWindow) + 1
    withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { window in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { deviations in
        for i in x.indices {
          guard let xi = x[i] else { continue }
          var n = 0
          for k in max(0, i - halfWindow)...min(x.count - 1, i + halfWindow) {
            if let v = x[k] { window[n] = v; n += 1 }
          }
          guard n >= 3 else { continue }
          let med = Self.sortedMedian(window, count: n)
          for k in 0..<n { deviations[k] = abs(window[k] - med) }
          let mad = 1.4826 * Self.sortedMedian(deviations, count: n)
          if abs(xi - med) > max(threshold * mad, floor) { out.append(i) }
        }
      }
    }
    return out
  }

  /// The median of the first `count` values of `v`, which are sorted in place (the same value as
  /// `median`).
  static func sortedMedian(_ v: UnsafeMutableBufferPointer<Double>, count: Int) -> Double {
    for i in 1..<max(1, count) {
      let x = v[i]
      var k = i
      while k > 0, v[k - 1] > x { v[k] = v[k - 1]; k -= 1 }
      v[k] = x
    }
    return count % 2 == 1 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2])
  }

  static func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
  }
}
