import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// Speed is measured by the benchmark, not here; this checks a default-length match is complete.
final class MatchLengthTests: XCTestCase {
  func testThirtySecondsGiveEveryFrame() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let m = try MatchSimulator.simulate(SimulationConfig(seed: 9, duration: 30), sport: tableTennis)
    XCTAssertEqual(m.truth.frames, 0...1799)
    XCTAssertEqual(m.match.frameRange, 0...1799)
  }
}
