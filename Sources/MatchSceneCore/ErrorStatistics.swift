/// Summary statistics of a set of errors (metres or pixels).
public struct ErrorStatistics: Sendable, Codable, Equatable {
  public var count: Int
  public var mean: Double
  public var median: Double
  public var p95: Double
  public var max: Double

  /// Statistics of `values`; all zero for an empty set. Percentiles by nearest rank.
  public init(_ values: [Double]) {
    count = values.count
    guard !values.isEmpty else {
      mean = 0; median = 0; p95 = 0; max = 0
      return
    }
    let sorted = sortedDoubles(values)
    mean = sorted.reduce(0, +) / Double(sorted.count)
    median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : 0.5 * (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2])
    p95 = sorted[Swift.min(sorted.count - 1, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]
    max = sorted.last!
  }
}
