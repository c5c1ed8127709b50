import MatchSceneCore
import MatchSceneSimulation
import XCTest

final class DeterminismTests: XCTestCase {
  func config(seed: UInt64, noise: DetectionNoise = DetectionNoise()) -> SimulationConfig {
    SimulationConfig(seed: seed, duration: 8, noise: noise)
  }

  func testSameSeedGivesIdenticalOutput() throws {
    let a = try MatchSimulator.simulate(config(seed: 42), sport: tableTennis)
    let b = try MatchSimulator.simulate(config(seed: 42), sport: tableTennis)
    XCTAssertEqual(a.truth.rows, b.truth.rows)
    XCTAssertEqual(a.events, b.events)
    XCTAssertEqual(a.match.cameras, b.match.cameras)
    for camera in a.match.cameras { XCTAssertEqual(a.match.detections[camera.name], b.match.detections[camera.name]) }
  }

  func testDifferentSeedsGiveDifferentMatches() throws {
    let a = try MatchSimulator.simulate(config(seed: 1), sport: tableTennis)
    let b = try MatchSimulator.simulate(config(seed: 2), sport: tableTennis)
    XCTAssertNotEqual(a.events, b.events)
    XCTAssertNotEqual(a.truth.rows.map(\.position), b.truth.rows.map(\.position))
  }

  func testNoiseSettingsDoNotChangeTheMotion() throws {
    let noisy = try MatchSimulator.simulate(config(seed: 5), sport: tableTennis)
    let clean = try MatchSimulator.simulate(config(seed: 5, noise: .none), sport: tableTennis)
    XCTAssertEqual(noisy.truth.rows.filter { $0.track != "B1" }.map(\.position), clean.truth.rows.map(\.position))
    XCTAssertEqual(noisy.events, clean.events)
    XCTAssertTrue(noisy.truth.rows.contains { $0.track == "B1" })
    XCTAssertFalse(clean.truth.rows.contains { $0.track == "B1" })
  }
}
