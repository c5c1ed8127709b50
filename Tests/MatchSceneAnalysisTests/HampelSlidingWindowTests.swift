import MatchSceneCore
import XCTest

@testable import MatchSceneMotion

/// The Hampel filter's sliding sorted window gives exactly the outliers of sorting each window afresh.
final class HampelSlidingWindowTests: XCTestCase {
  func testSlidingWindowFlagsTheSameSamplesAsSortingEachWindow() {
    var rng = SeededGenerator(seed: 11)
    var flagged = 0
    for trial in 0..<300 {
      let count = 1 + Int(rng.next() % 120)
      var x: [Double?] = (0..<count).map { i in
        // Quantised values: many ties, so duplicates enter and leave the window.
        let smooth = 0.3 * sin(Double(i + trial) / 7)
        return (smooth + 0.02 * rng.gaussian()).rounded(toPlaces: 2)
      }
      for _ in 0..<(count / 8) { x[Int(rng.next() % UInt64(count))] = nil }
      for _ in 0..<(count / 15) { x[Int(rng.next() % UInt64(count))] = rng.gaussian() * 3 }
      if count > 4 { x[count / 2] = -0.0; x[count / 3] = 0.0 }
      for halfWindow in [0, 1, 2, 5, 7] {
        let filter = HampelFilter(halfWindow: halfWindow, threshold: 3, floor: trial % 2 == 0 ? 0 : 0.01)
        let sliding = filter.outliers(x)
        XCTAssertEqual(sliding, filter.outliersSortingEachWindow(x), "trial \(trial), half window \(halfWindow)")
        flagged += sliding.count
      }
    }
    XCTAssertGreaterThan(flagged, 100, "the series must contain outliers for the comparison to mean something")
  }

  func testNonFiniteSamplesTakeThePerWindowPath() {
    var x: [Double?] = (0..<40).map { Double($0 % 5) * 0.01 }
    x[10] = 9
    x[20] = .nan
    x[25] = .infinity
    let filter = HampelFilter(halfWindow: 3)
    XCTAssertEqual(filter.outliers(x), filter.outliersSortingEachWindow(x))
    XCTAssertTrue(filter.outliers(x).contains(10))
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    let scale = [1.0, 10, 100, 1000][places]
    return (self * scale).rounded() / scale
  }
}
