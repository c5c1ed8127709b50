import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO
import TestSupport
import XCTest

/// `matchscene calibrate --match --person-height`: every camera posed from a simulated match's players
/// alone, the stated height giving the scale.
final class CalibrateFromPlayersCLITests: XCTestCase {
  func testThePlayersAlonePoseTheRigUpToItsFrame() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-players")
    let match = folder.appendingPathComponent("match")
    let sim = try runMatchScene(["simulate", "--seed", "2", "--duration", "2", "--faults", "hard", "-o", match.path])
    XCTAssertEqual(sim.status, 0, sim.stderr)
    let truthFile = match.appendingPathComponent("truth/calibration.toml")
    let out = folder.appendingPathComponent("out")
    let run = try runMatchScene([
      "calibrate", "-o", out.path, "--intrinsics", truthFile.path, "--match", match.path, "--person-height", "1.75m", "--player-frames", "40",
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("pose from players"), run.stdout)
    let truth = try CalibrationTOML.read(from: truthFile)
    let posed = try CalibrationTOML.read(from: out.appendingPathComponent("calibration.toml"))
    let pairs = posed.compactMap { c in truth.first { $0.name == c.name }.map { (c.center, $0.center) } }
    XCTAssertEqual(pairs.count, truth.count)
    let alignment = try XCTUnwrap(Similarity3.fit(from: pairs.map(\.0), to: pairs.map(\.1)))
    let worst = pairs.map { length(alignment.apply($0.0) - $0.1) }.max()!
    XCTAssertLessThan(worst, 0.05, "worst camera centre after a similarity: \(worst) m")
    XCTAssertEqual(alignment.scale, 1, accuracy: 0.05)
    let report = try String(contentsOf: out.appendingPathComponent("calibration_report.json"), encoding: .utf8)
    XCTAssertTrue(report.contains("\"playerRig\"") && report.contains("a stated body height of 1.750 m"), report)
  }

  func testNoScaleIsRefused() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-players-no-scale")
    let run = try runMatchScene(["calibrate", "-o", folder.appendingPathComponent("out").path, "--intrinsics", folder.path, "--from-players", "--match", folder.path])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("--person-height"), run.stderr)
  }
}
