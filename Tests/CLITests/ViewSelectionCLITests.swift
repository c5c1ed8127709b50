import Foundation
import TestSupport
import XCTest

/// `reconstruct --view-gate`, `match.toml`'s `view_gate` / `view_weights`, `views.csv` and the report's
/// view-selection figures, end to end on the built binary.
final class ViewSelectionCLITests: XCTestCase {
  func testGateFlagKeyAndViewsFile() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "4"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)

    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--view-gate", "4"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("over all views where it was detected"), run.stdout)
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as! [String: Any]
    XCTAssertEqual(report["viewGateSigmas"] as? Double, 4)
    let cameras = report["cameras"] as! [[String: Any]]
    XCTAssertEqual(cameras.count, 4)
    for camera in cameras {
      // The simulator's keypoint noise is 1.5 px per axis by default.
      let scale = try XCTUnwrap(camera["noiseScalePx"] as? Double)
      XCTAssertGreaterThan(scale, 0.5)
      XCTAssertLessThan(scale, 4)
      let all = try XCTUnwrap(camera["allViewsReprojectionPx"] as? [String: Any])
      XCTAssertGreaterThan(all["count"] as! Int, 100)
    }
    let views = try XCTUnwrap(report["meanViewsPerPoint"] as? Double)
    XCTAssertGreaterThan(views, 3, "four cameras that agree: most points use at least three")

    // views.csv: one row per triangulated person joint, the mask naming the cameras.
    let text = try String(contentsOf: out.appendingPathComponent("views.csv"), encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.removeFirst(), "frame,track,joint,mask,cameras")
    XCTAssertGreaterThan(lines.count, 100)
    var total = 0
    for line in lines {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      XCTAssertEqual(fields.count, 5, line)
      let mask = try XCTUnwrap(UInt64(fields[3]), line)
      XCTAssertGreaterThanOrEqual(mask.nonzeroBitCount, 2, line)
      XCTAssertEqual(fields[4].split(separator: "+").count, mask.nonzeroBitCount, line)
      XCTAssertEqual(mask & 1 != 0, fields[4].split(separator: "+").contains("cam1"), line)
      total += mask.nonzeroBitCount
    }
    XCTAssertEqual(Double(total) / Double(lines.count), views, accuracy: 0.05, "views.csv agrees with the report")

    // match.toml's view_gate = 0: the fixed pixel gate, no noise scales.
    let toml = match.appendingPathComponent("match.toml")
    let original = try String(contentsOf: toml, encoding: .utf8)
    try ("view_gate = 0\nview_weights = \"equal\"\n" + original).write(to: toml, atomically: true, encoding: .utf8)
    let fixed = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--force"])
    XCTAssertEqual(fixed.status, 0, fixed.stderr)
    let fixedReport = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as! [String: Any]
    XCTAssertNil(fixedReport["viewGateSigmas"])
    XCTAssertNil((fixedReport["cameras"] as! [[String: Any]])[0]["noiseScalePx"])

    // Bad values: the key and the flag are named, non-zero exit.
    try ("view_gate = -1\n" + original).write(to: toml, atomically: true, encoding: .utf8)
    let badKey = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--force"])
    XCTAssertNotEqual(badKey.status, 0)
    XCTAssertTrue(badKey.stderr.contains("view_gate") && badKey.stderr.contains("match.toml"), badKey.stderr)
    try ("view_weights = \"loud\"\n" + original).write(to: toml, atomically: true, encoding: .utf8)
    let badWeights = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--force"])
    XCTAssertNotEqual(badWeights.status, 0)
    XCTAssertTrue(badWeights.stderr.contains("view_weights"), badWeights.stderr)
    try original.write(to: toml, atomically: true, encoding: .utf8)
    let badFlag = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--force", "--view-gate", "-2"])
    XCTAssertNotEqual(badFlag.status, 0)
    XCTAssertTrue(badFlag.stderr.contains("--view-gate"), badFlag.stderr)
  }
}

/// A camera knocked out of place, end to end: by default its pose is corrected for the run (named in a
/// warning that says so; the corrected cameras in `calibration-refined.toml`, which `overlay` then draws
/// with); `--keep-calibration` uses the file as given and writes none.
final class KeepCalibrationCLITests: XCTestCase {
  func testAKnockedCameraIsCorrectedUnlessKept() throws {
    try requireTier(.integration)
    let match = try makeTemporaryFolder().appendingPathComponent("match")
    let folder = match.deletingLastPathComponent()
    let simulated = try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "4"])
    XCTAssertEqual(simulated.status, 0, simulated.stderr)
    // Turn cam2 by ~0.7° (its Rodrigues vector's first component), in the file itself.
    let file = match.appendingPathComponent("calibration/calibration.toml")
    var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    let section = try XCTUnwrap(lines.firstIndex(of: "[cam2]"))
    let at = try XCTUnwrap(lines[section...].firstIndex { $0.hasPrefix("rotation = [ ") })
    var values = lines[at].dropFirst("rotation = [ ".count).split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    XCTAssertEqual(values.count, 3)
    values[0] += 0.012
    lines[at] = "rotation = [ \(values.map { String($0) }.joined(separator: ", ")),]"
    try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

    func median(_ out: URL, camera: String) throws -> Double {
      let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as! [String: Any]
      let cameras = report["cameras"] as! [[String: Any]]
      let figures = try XCTUnwrap(cameras.first { $0["name"] as? String == camera }?["allViewsReprojectionPx"] as? [String: Any])
      return try XCTUnwrap(figures["median"] as? Double)
    }
    let corrected = folder.appendingPathComponent("corrected"), kept = folder.appendingPathComponent("kept")
    let run = try runMatchScene(["reconstruct", match.path, "-o", corrected.path, "--no-scene", "--no-analysis"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stderr.contains("cam2") && run.stderr.contains("corrected from the match for this run"), run.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: corrected.appendingPathComponent("calibration-refined.toml").path))
    let keep = try runMatchScene(["reconstruct", match.path, "-o", kept.path, "--no-scene", "--no-analysis", "--keep-calibration"])
    XCTAssertEqual(keep.status, 0, keep.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: kept.appendingPathComponent("calibration-refined.toml").path))
    // The overlay of the corrected run draws with the corrected cameras, and says so; a camera may be
    // named as loosely as its detection folder may (Cam02 for cam2).
    let overlay = try runMatchScene([
      "overlay", match.path, "--tracks", corrected.path, "--camera", "Cam02", "--frames", "30-30", "-o", folder.appendingPathComponent("overlay").path,
    ])
    XCTAssertEqual(overlay.status, 0, overlay.stderr)
    XCTAssertTrue(overlay.stderr.contains("calibration-refined.toml"), overlay.stderr)
    XCTAssertTrue(keep.stderr.contains("--refine-calibration corrects its pose"), keep.stderr)
    let after = try median(corrected, camera: "cam2"), before = try median(kept, camera: "cam2")
    print("cam2 all-views median: kept \(before) px, corrected \(after) px")
    XCTAssertLessThan(after, 3, "near the simulator's 1.5 px noise")
    XCTAssertGreaterThan(before, 2.5 * after, "as given: 4.4 px against 1.3 px")
  }
}
