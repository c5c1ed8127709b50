import Foundation
import TestSupport
import XCTest

/// Frame ranges are bounded by the data, and a run that reconstructs nothing says so instead of
/// writing an empty tracks.csv.
final class FrameRangeTests: XCTestCase {
  func testFramesOutsideTheDataAreAnError() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", OutputFolderTests.match.path, "-o", out.path, "--frames", "5000-6000"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("frames option") && run.stderr.contains("5000–6000") && run.stderr.contains("0–239"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no output written")
  }

  func testAHugeRangeIsBoundedByTheData() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", OutputFolderTests.match.path, "-o", out.path, "--frames", "0-1000000000000", "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("Reconstructed 240 frames"), run.stdout)
  }

  func testOneCameraReconstructsNothingAndSaysSo() throws {
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
