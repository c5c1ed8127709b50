import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `locate-venue` on a simulated match with the hard faults, described in a world turned 30° and moved
/// 3 m (`simulate --world-transform`), with the table's corners clicked in the cameras (2 px of noise,
/// `simulate --table-corners`): the table's centre within 1 cm and its long axis within 0.5°, and a
/// reconstruction with that `[venue]` finds the same events as the match in its own world.
final class LocateVenueWorldTests: XCTestCase {
  func testLocatesTheVenueInAnotherWorldAndKeepsTheEvents() throws {
    try locatesTheVenue(seed: 1)
  }

  /// A spinning ball (up to 150 rev/s, drag varying ±20 %): the Magnus force must not tilt up.
  func testLocatesTheVenueOfASpinningMatch() throws {
    try locatesTheVenue(seed: 3, simulate: ["--max-spin", "150", "--drag-variation", "0.2"])
  }

  func locatesTheVenue(seed: Int, simulate extraSimulate: [String] = []) throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let common = ["--duration", "20", "--seed", "\(seed)", "--faults", "hard"] + extraSimulate
    for (name, extra) in [("plain", [String]()), ("moved", ["--world-transform", "yaw=30,x=1.8,y=-2.4", "--table-corners", "2"])] {
      let run = try runMatchScene(["simulate", "-o", path(name)] + common + extra)
      XCTAssertEqual(run.status, 0, run.stderr)
    }
    let plain = try runMatchScene(["reconstruct", path("plain"), "-o", path("plain-out"), "--no-scene"])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    let raw = try runMatchScene(["reconstruct", path("moved"), "-o", path("moved-raw"), "--no-scene", "--no-analysis"])
    XCTAssertEqual(raw.status, 0, raw.stderr)
    let locate = try runMatchScene([
      "locate-venue", path("moved-raw"), "--corners", path("moved/table_corners.toml"), "--calibration", path("moved/calibration"),
    ])
    XCTAssertEqual(locate.status, 0, locate.stderr)
    let venue = try XCTUnwrap(try MatchConfig.parse(locate.stdout, file: "locate-venue output").venue, locate.stdout)
    // The simulator's venue, turned 30° about z and moved (1.8, −2.4, 0): 3 m.
    let trueAxis = SIMD3(cos(Double.pi / 6), sin(Double.pi / 6), 0)
    let centreError = length(venue.origin - SIMD3(1.8, -2.4, 0))
    let axisError = acos(min(1, abs(dot(venue.longAxis, trueAxis)))) * 180 / .pi
    print(String(format: "LocateVenueWorldTests seed %d%@: centre %.2f cm, long axis %.3f°", seed, extraSimulate.isEmpty ? "" : " spinning", 100 * centreError, axisError))
    XCTAssertLessThan(centreError, 0.01, locate.stdout)
    XCTAssertLessThan(axisError, 0.5, locate.stdout)
    // Each source's residual and weight are in the report.
    for source in ["# bounces heading", "# corners heading", "# corners centre along", "weight"] {
      XCTAssertTrue(locate.stdout.contains(source), "\(source): \(locate.stdout)")
    }

    // With that [venue], the events of the plain run, re-expressed.
    let toml = URL(fileURLWithPath: path("moved/match.toml"))
    try (try String(contentsOf: toml, encoding: .utf8) + "\n" + locate.stdout).write(to: toml, atomically: true, encoding: .utf8)
    let moved = try runMatchScene(["reconstruct", path("moved"), "-o", path("moved-out"), "--no-scene"])
    XCTAssertEqual(moved.status, 0, moved.stderr)
    let expected = try EventsJSON.read(from: URL(fileURLWithPath: path("plain-out/events.json")))
    let found = try EventsJSON.read(from: URL(fileURLWithPath: path("moved-out/events.json")))
    XCTAssertGreaterThan(expected.filter { $0.type == .bounce }.count, 5)
    func key(_ e: MatchEvent) -> String { "\(e.type.rawValue) \(e.frame) \(e.track ?? "") \(e.side.map { "\($0)" } ?? "") \(e.rally ?? -1)" }
    XCTAssertEqual(found.map(key), expected.map(key))
    let worldFromVenue = RigidTransform(rotation: Matrix3.rodrigues(SIMD3(0, 0, Double.pi / 6)), translation: SIMD3(1.8, -2.4, 0))
    for (f, e) in zip(found, expected) {
      guard let p = f.position, let q = e.position else { continue }
      XCTAssertLessThan(length(p - worldFromVenue.apply(q)), 0.01, "\(key(e))")
    }
  }
}
