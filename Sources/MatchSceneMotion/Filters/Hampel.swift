import MatchSceneCore

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
  /// The window is kept sorted in a stack buffer as it slides (one insertion and one removal per
  /// sample), and the median absolute deviation is read off it by merging outward from the median,
  /// allocating nothing per sample. The figures are those of sorting each window afresh, bit for bit
  /// (a sorted window holds the same values in either case; a sample that is not finite, where the
  /// order of equal-comparing values could matter, takes that path).
  public func outliers(_ x: [Double?]) -> [Int] {
    guard x.allSatisfy({ $0?.isFinite ?? true }) else { return outliersSortingEachWindow(x) }
    var out: [Int] = []
    let half = max(0, halfWindow)
    withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * half + 1) { window in
      var n = 0
      for k in 0..<min(half, x.count) { if let v = x[k] { Self.insert(v, into: window, count: &n) } }
      for i in x.indices {
        if i - half - 1 >= 0, let v = x[i - half - 1] { Self.remove(v, from: window, count: &n) }
        if i + half < x.count, let v = x[i + half] { Self.insert(v, into: window, count: &n) }
        guard let xi = x[i], n >= 3 else { continue }
        let med = n % 2 == 1 ? window[n / 2] : 0.5 * (window[n / 2 - 1] + window[n / 2])
        let mad = 1.4826 * Self.medianDeviation(ofSorted: window, count: n, from: med)
        if abs(xi - med) > max(threshold * mad, floor) { out.append(i) }
      }
    }
    return out
  }

  /// `outliers(_:)` sorting each window afresh (insertion sort of a dozen samples).
  func outliersSortingEachWindow(_ x: [Double?]) -> [Int] {
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

  /// Inserts `v` into the ascending first `count` values of `w`.
  static func insert(_ v: Double, into w: UnsafeMutableBufferPointer<Double>, count: inout Int) {
    var k = count
    while k > 0, w[k - 1] > v { w[k] = w[k - 1]; k -= 1 }
    w[k] = v
    count += 1
  }

  /// Removes one value with `v`'s bits from the ascending first `count` values of `w` (it must be there).
  static func remove(_ v: Double, from w: UnsafeMutableBufferPointer<Double>, count: inout Int) {
    var k = 0
    while k < count - 1, w[k].bitPattern != v.bitPattern { k += 1 }
    while k < count - 1 { w[k] = w[k + 1]; k += 1 }
    count -= 1
  }

  /// The median of `|w[k] − med|` over the ascending, finite first `count` values of `w`: the
  /// deviations grow outward from `med` on both sides, so merging the two runs reaches the middle
  /// without sorting (rounding is monotonic, so the runs stay ordered in floating point).
  static func medianDeviation(ofSorted w: UnsafeMutableBufferPointer<Double>, count n: Int, from med: Double) -> Double {
    var right = 0
    while right < n, w[right] < med { right += 1 }
    var left = right - 1
    var previous = 0.0, current = 0.0
    for _ in 0...(n / 2) {
      previous = current
      let takeLeft = left >= 0 && (right >= n || abs(w[left] - med) <= abs(w[right] - med))
      if takeLeft {
        current = abs(w[left] - med)
        left -= 1
      } else {
        current = abs(w[right] - med)
        right += 1
      }
    }
    return n % 2 == 1 ? current : 0.5 * (previous + current)
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

  static func median(_ v: [Double]) -> Double { MatchSceneCore.median(v) }
}
