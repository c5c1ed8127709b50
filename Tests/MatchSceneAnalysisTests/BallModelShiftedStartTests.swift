@testable import MatchSceneBallFlight
import MatchSceneCore
import XCTest

@testable import MatchSceneBallPlay

/// The flight fit's position columns of the Jacobian come from one integration
/// (`BallModel.positions(…shiftedBy:)`); they must equal integrating each shifted start, bit for bit.
final class BallModelShiftedStartTests: XCTestCase {
  func testShiftedStartsEqualSeparateIntegrationsBitForBit() {
    let model = BallModel(drag: 0.12)
    var rng = SeededGenerator(seed: 5)
    for _ in 0..<40 {
      let p0 = SIMD3(rng.gaussian(), rng.gaussian(), 1 + rng.gaussian() * 0.2)
      let v0 = SIMD3(rng.gaussian() * 8, rng.gaussian() * 3, rng.gaussian() * 2)
      // Times on both sides of the reference, unsorted, with a repeat.
      var times = (0..<25).map { Double($0 - 12) / 60 + 0.001 * rng.gaussian() }
      times.shuffle(using: &rng)
      times.append(times[3])
      let h = 1e-6
      let both = model.positions(from: p0, v0, at: times, order: BallModel.timeOrder(times), shiftedBy: h)
      XCTAssertEqual(both.positions.map(\.bits), model.positions(from: p0, v0, at: times).map(\.bits))
      for k in 0..<3 {
        var start = p0
        start[k] = p0[k] + h
        let separate = model.positions(from: start, v0, at: times)
        for i in times.indices {
          XCTAssertEqual(both.shifted[i][k].bitPattern, separate[i][k].bitPattern)
          for j in 0..<3 where j != k { XCTAssertEqual(separate[i][j].bitPattern, both.positions[i][j].bitPattern) }
        }
      }
      // The single-state path takes the same steps.
      let (p, _) = model.advance(p0, v0, by: 0.2)
      XCTAssertEqual(p.bits, model.positions(from: p0, v0, at: [0.2])[0].bits)
    }
  }
}

extension SIMD3 where Scalar == Double {
  fileprivate var bits: [UInt64] { [x.bitPattern, y.bitPattern, z.bitPattern] }
}
