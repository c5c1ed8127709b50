import Foundation
import TestSupport
import XCTest

/// The CLI on bad input: a clear message naming the file, a non-zero exit, nothing half-written.
final class BadInputTests: XCTestCase {
  func testMissingMatchFolder() throws {
    try requireTier(.integration)
    let result = try runMatchScene(["reconstruct", "/nonexistent/match", "-o", "/tmp/x"])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("/nonexistent/match"), result.stderr)
  }

  func testMalformedCalibrationNamesFileAndKeyAndWritesNothing() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let calibration = folder.appendingPathComponent("calibration")
    try FileManager.default.createDirectory(at: calibration, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("ball"), withIntermediateDirectories: true)
    try """
      [cam01]
      name = "cam01"
      size = [1920, 1080]
      matrix = [[1400, 0, 960], [0, 1400, 540], [0, 0, 1]]
      distortions = [0, 0, 0, 0]
      rotation = [[1, 0, 0], [0, 1, 0], [0, 0, -1]]
      translation = [0, 0, 4]
      """.write(to: calibration.appendingPathComponent("calibration.toml"), atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try runMatchScene(["reconstruct", folder.path, "-o", out.path])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("calibration.toml") && result.stderr.contains("cam01.rotation"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written on failure")
  }

  func testInvalidFlagValues() throws {
    try requireTier(.integration)
    let result = try runMatchScene(["reconstruct", "x", "-o", "y", "--fps", "-3"])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("--fps"), result.stderr)
    let frames = try runMatchScene(["reconstruct", "x", "-o", "y", "--frames", "9-3"])
    XCTAssertNotEqual(frames.status, 0)
    let never = try makeTemporaryFolder("bad-simulate-flags").appendingPathComponent("never-written")
    for (flag, value) in [("--max-spin", "-5"), ("--max-spin", "nan"), ("--drag-variation", "2"), ("--table-corners", "-1")] {
      let simulate = try runMatchScene(["simulate", "-o", never.path, flag, value])
      XCTAssertNotEqual(simulate.status, 0, "\(flag) \(value)")
      XCTAssertTrue(simulate.stderr.contains(flag), simulate.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: never.path), "nothing written")
    }
  }

  func testEvaluateReportsAMalformedTracksFileWithItsLine() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let bad = folder.appendingPathComponent("tracks.csv")
    try "frame,time,track,kind,joint,x,y,z,reproj_px,views\n1,0.1,P1,player,nose,1,2\n".write(to: bad, atomically: true, encoding: .utf8)
    let result = try runMatchScene(["evaluate", bad.path, "--truth", bad.path])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("tracks.csv:2:"), result.stderr)
  }
}
