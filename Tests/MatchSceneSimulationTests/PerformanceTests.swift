import MatchSceneCore
import MatchSceneSimulation
import XCTest

final class SimulationTimingTests: XCTestCase {
  /// Reports how long 30 s at 60 fps with the default four cameras takes (the budget, < 2 s, holds for
  /// release builds; debug builds are several times slower, so this only guards against blow-ups).
  func testThirtySecondsSimulateQuickly() throws {
    let start = Date()
    let m = try MatchSimulator.simulate(SimulationConfig(seed: 9, duration: 30), sport: tableTennis)
    let elapsed = Date().timeIntervalSince(start)
    print("simulated 30 s (\(m.truth.points.count) truth points) in \(elapsed) s")
    XCTAssertEqual(m.truth.frameRange, 0...1799)
    XCTAssertLessThan(elapsed, 20)
  }
}
