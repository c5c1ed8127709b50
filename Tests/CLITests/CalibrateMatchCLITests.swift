import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `matchscene calibrate --table-corners --match`: the poses the clicked corners give, refined jointly on
/// a simulated match's players, end up nearer the simulator's true rig than the corners alone put them.
final class CalibrateMatchCLITests: XCTestCase {
  /// The worst camera centre distance between two rigs, metres, the world of `cameras` turned by a half
  /// turn about z if that fits better (the table's two ends look alike).
  func worstCentreError(_ cameras: [Camera], truth: [Camera]) -> Double {
    let pairs = cameras.compactMap { c in truth.first { $0.name == c.name }.map { (c.center, $0.center) } }
    let asGiven = pairs.map { length($0.0 - $0.1) }.max() ?? .infinity
    let turned = pairs.map { length(SIMD3(-$0.0.x, -$0.0.y, $0.0.z) - $0.1) }.max() ?? .infinity
    return min(asGiven, turned)
  }

  func testRefiningOnThePlayersBringsThePosesNearerTheTruth() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-match")
    let match = folder.appendingPathComponent("match")
    let sim = try runMatchScene(["simulate", "--seed", "1", "--duration", "1", "--faults", "hard", "--table-corners", "2", "-o", match.path])
    XCTAssertEqual(sim.status, 0, sim.stderr)
    let truthFile = match.appendingPathComponent("truth/calibration.toml"), corners = match.appendingPathComponent("table_corners.toml")
    let cornersOnly = folder.appendingPathComponent("corners"), refined = folder.appendingPathComponent("refined")
    let first = try runMatchScene(["calibrate", "-o", cornersOnly.path, "--intrinsics", truthFile.path, "--table-corners", corners.path])
    XCTAssertEqual(first.status, 0, first.stderr)
    let run = try runMatchScene([
      "calibrate", "-o", refined.path, "--intrinsics", truthFile.path, "--table-corners", corners.path, "--match", match.path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("refined on the players"), run.stdout)
    let truth = try CalibrationTOML.read(from: truthFile)
    let before = worstCentreError(try CalibrationTOML.read(from: cornersOnly.appendingPathComponent("calibration.toml")), truth: truth)
    let after = worstCentreError(try CalibrationTOML.read(from: refined.appendingPathComponent("calibration.toml")), truth: truth)
    XCTAssertLessThan(after, before, "worst camera centre: \(after) m refined, \(before) m from the corners alone")
    XCTAssertLessThan(after, 0.05)
    let report = try String(contentsOf: refined.appendingPathComponent("calibration_report.json"), encoding: .utf8)
    XCTAssertTrue(report.contains("playerRefinement") && report.contains("table+players"), report)
  }

  func testAMatchWithoutTableCornersIsRefused() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-match-alone")
    let run = try runMatchScene(["calibrate", "-o", folder.appendingPathComponent("out").path, "--intrinsics", folder.path, "--match", folder.path])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("--table-corners"), run.stderr)
  }
}
