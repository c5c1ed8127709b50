import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// Rally length and stroke heights: every serve is returned, so a finished rally has 2–10 strokes, and
/// every return is struck behind the end of the table at a height a player reaches (0.8–1.3 m).
final class RallyLengthTests: XCTestCase {
  /// One more match of short rallies (2–4 strokes), perfect detectors (only the motion matters here).
  static let shortRallies: SimulatedMatch = try! MatchSimulator.simulate(
    SimulationConfig(seed: 5, duration: 20, noise: .none, shotsPerRally: 2...4), sport: tableTennis)

  var matches: [SimulatedMatch] { [sharedMatch, leftHandedMatch, RallyTests.netMatch, Self.shortRallies] }

  func testEveryFinishedRallyHasTwoToTenStrokes() throws {
    var finished = 0
    for m in matches {
      let byRally = Dictionary(grouping: m.events.filter { $0.rally != nil }, by: { $0.rally! })
      for (rally, events) in byRally where events.contains(where: { $0.type == .rallyEnd }) {
        let hits = events.filter { $0.type == .hit }.count
        XCTAssertTrue((2...10).contains(hits), "rally \(rally) has \(hits) strokes")
        finished += 1
      }
    }
    XCTAssertGreaterThanOrEqual(finished, 4)
  }

  func testReturnsAreStruckBehindTheTableAtAReachableHeight() throws {
    var returns = 0
    for m in matches {
      for e in m.events where e.type == .hit {
        let p = try XCTUnwrap(e.position)
        XCTAssertTrue((0.8...1.3).contains(p[2]), "\(e.track ?? "?") strikes at z = \(p[2]) m, frame \(e.frame)")
        // Behind or just over the end line (at most 0.5 m inside it), on the hitter's side.
        let side: Double = e.track == "P1" ? -1 : 1
        XCTAssertGreaterThan(side * p[0], 1.37 - 0.5 - 1e-9, "frame \(e.frame)")
        returns += 1
      }
    }
    XCTAssertGreaterThan(returns, 20)
  }
}
