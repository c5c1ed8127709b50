import Foundation
import TestSupport
import XCTest

/// Frame ranges are bounded by the data, and a run that reconstructs nothing says so instead of
/// writing an empty tracks.csv.
final class FrameRangeTests: XCTestCase {
  func testFramesOutsideTheDataAreAnError() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", OutputFolderTests.match.path, "-o", out.path, "--frames", "5000-6000"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("frames option") && run.stderr.contains("5000–6000") && run.stderr.contains("0–239"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no output written")
  }

  func testAHugeRangeIsBoundedByTheData() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", OutputFolderTests.match.path, "-o", out.path, "--frames", "0-1000000000000", "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("Reconstructed 240 frames"), run.stdout)
  }

  /// A clip shorter than the 0.5 s minimum track (Pose2Sim's static trials for OpenSim scaling are 12
  /// frames at 60 fps) keeps the people seen in at least half of it: 12 frames of the 4 s match give both
  /// players and the bystander, their TRC files, and joints within 10 mm of the truth on average
  /// (measured 3.7 mm); it used to stop with "nothing was reconstructed".
  func testATwelveFrameClipKeepsItsPeople() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", OutputFolderTests.match.path, "-o", out.path, "--frames", "100-111", "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("Reconstructed 12 frames") && run.stdout.contains("2 player(s) [P1, P2]"), run.stdout)
    for name in ["P1", "P2", "B1"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("trc/\(name).trc").path), name)
    }
    let evaluation = try runMatchScene(["evaluate", out.path, "--truth", OutputFolderTests.match.appendingPathComponent("truth").path])
    XCTAssertEqual(evaluation.status, 0, evaluation.stderr)
    let line = evaluation.stdout.split(separator: "\n").first { $0.hasPrefix("players: mean ") }
    let mean = line.flatMap { Double($0.dropFirst("players: mean ".count).prefix { $0 != " " }) }
    XCTAssertLessThan(mean ?? .infinity, 10, evaluation.stdout)
  }

  func testOneCameraReconstructsNothingAndSaysSo() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match")
    try FileManager.default.copyItem(at: OutputFolderTests.match, to: match)
    for camera in ["cam2", "cam3", "cam4"] {
      try FileManager.default.removeItem(at: match.appendingPathComponent("pose/\(camera)_json"))
      try FileManager.default.removeItem(at: match.appendingPathComponent("ball/\(camera).csv"))
    }
    let out = folder.appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("nothing was reconstructed"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no empty output")
  }
}
