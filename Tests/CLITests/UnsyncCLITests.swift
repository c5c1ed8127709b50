import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `simulate --faults hard --unsync N` then `reconstruct`: the truth says the clocks and the calibration,
/// match.toml does not; reconstruct names the cameras that are off, uses their offsets, and writes them
/// with their uncertainty in report.json; `--no-estimate-sync` keeps the cameras as they are.
final class UnsyncCLITests: XCTestCase {
  func testSimulatedUnsynchronisedCamerasAreFoundAndReported() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene([
      "simulate", "-o", match.path, "--duration", "4", "--seed", "2", "--unsync", "20", "--faults", "hard",
    ])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let truthData = try Data(contentsOf: match.appendingPathComponent("truth/camera_sync.json"))
    let truth = try XCTUnwrap(JSONSerialization.jsonObject(with: truthData) as? [[String: Any]])
    XCTAssertEqual(truth.count, 4)
    XCTAssertTrue(FileManager.default.fileExists(atPath: match.appendingPathComponent("truth/calibration.toml").path))
    let config = try MatchConfig.read(from: match.appendingPathComponent("match.toml"))
    XCTAssertEqual(config.frameOffsets, [:])

    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--no-analysis"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    let reportData = try Data(contentsOf: out.appendingPathComponent("report.json"))
    let report = try XCTUnwrap(JSONSerialization.jsonObject(with: reportData) as? [String: Any])
    let sync = try XCTUnwrap(report["sync"] as? [[String: Any]])
    XCTAssertEqual(sync.count, 3)
    for entry in sync {
      let estimate = try XCTUnwrap(entry["estimate"] as? [String: Any])
      let camera = try XCTUnwrap(estimate["camera"] as? String)
      let trueOffset = try XCTUnwrap(truth.first { $0["camera"] as? String == camera }?["offset"] as? Double)
      let offset = try XCTUnwrap(estimate["offset"] as? Double)
      XCTAssertEqual(offset, trueOffset, accuracy: 0.15, camera)
      XCTAssertNotNil(estimate["uncertaintyFrames"] as? Double)
      if abs(trueOffset) >= 1 {
        XCTAssertEqual(entry["appliedFrames"] as? Bool, true, camera)
        XCTAssertTrue(reconstruct.stderr.contains("\(camera) runs"), reconstruct.stderr)
      }
    }
    XCTAssertTrue(reconstruct.stderr.contains("not synchronised"), reconstruct.stderr)

    let off = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--force", "--no-scene", "--no-analysis", "--no-estimate-sync"])
    XCTAssertEqual(off.status, 0, off.stderr)
    XCTAssertFalse(off.stderr.contains("not synchronised"))
    let offReport = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
    XCTAssertNil(offReport["sync"])
  }
}
