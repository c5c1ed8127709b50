import XCTest

@testable import MatchSceneCore

/// `sortedDoubles` against the standard library's sort, bit for bit (it feeds `ErrorStatistics`,
/// whose mean is summed in sorted order, so any difference would change written figures).
final class SortedDoublesTests: XCTestCase {
  func testMatchesSortedBitForBitOnLargeMixedInput() {
    var rng = SeededGenerator(seed: 7)
    var values: [Double] = []
    for i in 0..<100_000 {
      switch i % 7 {
      case 0: values.append(Double(rng.next() % 1000) / 8)  // many exact duplicates
      case 1: values.append(-Double(rng.next() % 1_000_000) * 1e-3)
      case 2: values.append(Double(bitPattern: rng.next() & ~(1 << 63) & ~(0x7FF << 52)))  // subnormal or zero
      case 3: values.append(i % 2 == 0 ? .infinity : -.infinity)
      case 4: values.append(Double(bitPattern: rng.next() % 0x7FE0_0000_0000_0000))  // any positive finite
      default: values.append(Double(rng.next() >> 11) / Double(1 << 53) * 40)
      }
    }
    let expected = values.sorted()
    let got = sortedDoubles(values)
    XCTAssertEqual(got.count, expected.count)
    XCTAssertTrue(zip(got, expected).allSatisfy { $0.bitPattern == $1.bitPattern })
    let finite = values.filter(\.isFinite)
    XCTAssertEqual(ErrorStatistics(finite), ErrorStatisticsReference(finite))
  }

  func testNegativeZeroAndNaNFallBackToTheStableSort() {
    var values = (0..<20_000).map { Double($0 % 97) - 48 }
    values[5] = -0.0
    values[7] = 0.0
    let got = sortedDoubles(values)
    let expected = values.sorted()
    XCTAssertTrue(zip(got, expected).allSatisfy { $0.bitPattern == $1.bitPattern })
    values[9] = .nan
    XCTAssertEqual(sortedDoubles(values).map(\.bitPattern), values.sorted().map(\.bitPattern))
  }

  func testSmallAndUniformInputs() {
    XCTAssertEqual(sortedDoubles([]), [])
    XCTAssertEqual(sortedDoubles([3, 1, 2]), [1, 2, 3])
    let same = [Double](repeating: 2.5, count: 50_000)
    XCTAssertEqual(sortedDoubles(same), same)
    let descending = (0..<50_000).map { Double(50_000 - $0) }
    XCTAssertEqual(sortedDoubles(descending), descending.reversed())
  }

  /// A handful of values sorted in a stack buffer give the array sort's order; with a NaN among them,
  /// exactly what sorting the values in the order emitted gives.
  func testSortedValuesInAStackBufferAreTheArraySort() {
    var generator = SystemRandomNumberGenerator()
    for n in 0..<30 {
      let values = (0..<n).map { _ in Double.random(in: -5...5, using: &generator).rounded() / 2 }
      let got = withSortedValues(capacity: n) { emit in values.forEach(emit) } _: { Array($0) }
      XCTAssertEqual(got, values.sorted(), "n = \(n)")
    }
    let withNaN = [3.0, .nan, 1.0, 2.0]
    let got = withSortedValues(capacity: 4) { emit in withNaN.forEach(emit) } _: { Array($0) }
    let expected = withNaN.sorted()
    XCTAssertEqual(got.count, 4)
    for (a, b) in zip(got, expected) { XCTAssertTrue(a == b || (a.isNaN && b.isNaN), "\(got) against \(expected)") }
  }
}

/// The statistics as `ErrorStatistics` computed them before the radix sort (standard sort).
private func ErrorStatisticsReference(_ values: [Double]) -> ErrorStatistics {
  let sorted = values.sorted()
  var s = ErrorStatistics([])
  s.count = sorted.count
  s.mean = sorted.reduce(0, +) / Double(sorted.count)
  s.median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : 0.5 * (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2])
  s.p95 = sorted[Swift.min(sorted.count - 1, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]
  s.max = sorted.last!
  return s
}
