import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `simulate --one-device … --touch-drill`, `reconstruct` and `drill` end to end.
final class DrillCLITests: XCTestCase {
  struct DrillJSON: Decodable {
    struct Target: Decodable, Equatable { var name: String; var hits: Int }
    var score: Double
    var targets: [Target]
  }

  func testOneDeviceTouchDrillEndToEnd() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder("drill-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    for format in ["mediapipe", "arkit"] {
      let match = root.appendingPathComponent(format), out = match.appendingPathComponent("out")
      var r = try runMatchScene(["simulate", "--one-device", format, "--touch-drill", "--duration", "10", "--seed", "3", "-o", match.path])
      XCTAssertEqual(r.status, 0, r.stderr)
      r = try runMatchScene(["reconstruct", match.path, "-o", out.path])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stdout.contains("Zones: "), r.stdout)
      let events = try EventsJSON.read(from: out.appendingPathComponent("events.json"))
      XCTAssertFalse(events.filter { $0.type == .zoneEnter && $0.zone != nil && $0.joint != nil && $0.speed != nil }.isEmpty)
      r = try runMatchScene(["drill", out.path, "--drill", match.appendingPathComponent("drill.toml").path])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stdout.contains("touch drill: score"), r.stdout)
      let found = try JSONDecoder().decode(DrillJSON.self, from: Data(contentsOf: out.appendingPathComponent("drill.json")))
      let truth = try JSONDecoder().decode(DrillJSON.self, from: Data(contentsOf: match.appendingPathComponent("truth/drill.json")))
      XCTAssertEqual(found.score, truth.score, format)
      XCTAssertEqual(found.targets, truth.targets, format)
      XCTAssertGreaterThan(truth.targets.reduce(0) { $0 + $1.hits }, 2)
    }
    // A bad drill file: non-zero exit, the file and the key named, no drill.json written.
    let bad = root.appendingPathComponent("bad.toml")
    try "order = \"sideways\"\n[[target]]\nname = \"a\"\nshape = \"sphere\"\nradius = 0.1\n".write(to: bad, atomically: true, encoding: .utf8)
    let out = root.appendingPathComponent("arkit/out")
    try FileManager.default.removeItem(at: out.appendingPathComponent("drill.json"))
    let r = try runMatchScene(["drill", out.path, "--drill", bad.path])
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("bad.toml") && r.stderr.contains("order"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("drill.json").path))
  }

  /// reconstruct --zones with a bad zones file fails before any work, naming the file and key.
  func testReconstructWithBadZonesNamesFileAndKey() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder("zones-cli")
    defer { try? FileManager.default.removeItem(at: root) }
    let match = root.appendingPathComponent("m")
    XCTAssertEqual(try runMatchScene(["simulate", "--one-device", "arkit", "--touch-drill", "--duration", "3", "-o", match.path]).status, 0)
    let zones = root.appendingPathComponent("z.toml")
    try "[[zone]]\nname = \"a\"\nshape = \"sphere\"\ntriggers = [\"ball\"]\n".write(to: zones, atomically: true, encoding: .utf8)
    let r = try runMatchScene(["reconstruct", match.path, "-o", root.appendingPathComponent("out").path, "--zones", zones.path])
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("z.toml") && r.stderr.contains("zone[1].radius"), r.stderr)
  }
}
