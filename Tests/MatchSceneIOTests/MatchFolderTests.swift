import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class MatchFolderTests: XCTestCase {
  func sampleMatch() throws -> Match {
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "c.toml")
    var detections: [String: CameraDetections] = [:]
    for (i, camera) in cameras.enumerated() {
      var d = CameraDetections()
      for f in 0..<5 {
        d.people[f] = [PersonDetection2D(keypoints: (0..<17).map { Keypoint2D(x: Double(100 * i + $0), y: Double(f), confidence: 0.9) })]
        if f != 2 { d.balls[f] = [BallDetection2D(x: Double(500 + f), y: Double(300 + i))] }
      }
      detections[camera.name] = d
    }
    return Match(sport: "table-tennis", fps: 120, cameras: cameras, detections: detections)
  }

  func testWriteThenLoadGivesTheSameMatch() throws {
    let folder = try makeTemporaryFolder()
    let match = try sampleMatch()
    try MatchFolder.write(match, to: folder, frames: 0...4)
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.match.fps, 120)
    XCTAssertEqual(loaded.match.cameras.map(\.name), match.cameras.map(\.name))
    XCTAssertEqual(loaded.commonFrames, 0...4)
    XCTAssertTrue(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    for camera in match.cameras {
      XCTAssertEqual(loaded.match.detections[camera.name]?.balls, match.detections[camera.name]?.balls)
      XCTAssertEqual(loaded.match.detections[camera.name]?.people, match.detections[camera.name]?.people)
    }
    var options = MatchFolderOptions()
    options.fps = 50
    XCTAssertEqual(try MatchFolder.load(folder, options: options).match.fps, 50, "flags override match.toml")
  }

  func testUnknownCameraIsAnErrorNamingTheFolder() throws {
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("pose/cam02_json"), to: folder.appendingPathComponent("pose/cam09_json"))
    XCTAssertThrowsError(try MatchFolder.load(folder)) { error in
      XCTAssertTrue("\(error)".contains("pose/cam09") && "\(error)".contains("not in the calibration"), "\(error)")
    }
  }

  func testDifferentFrameRangesWarnAndUseTheCommonRange() throws {
    let folder = try makeTemporaryFolder()
    var match = try sampleMatch()
    match.detections["cam03"]!.people[7] = []
    match.detections["cam03"]!.balls[7] = [BallDetection2D(x: 1, y: 2)]
    try MatchFolder.write(match, to: folder, frames: 0...4)
    try TrackNetCSV.write(match.detections["cam03"]!.balls, frames: 0...7, to: folder.appendingPathComponent("ball/cam03.csv"))
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.commonFrames, 0...4)
    XCTAssertEqual(loaded.diagnostics.count, 1)
    XCTAssertTrue("\(loaded.diagnostics[0])".contains("common range 0–4"), "\(loaded.diagnostics[0])")
  }

  func testMissingPartsAreClearErrors() throws {
    let folder = try makeTemporaryFolder()
    XCTAssertThrowsError(try MatchFolder.load(folder)) { XCTAssertTrue("\($0)".contains("calibration")) }
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("pose"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ball"))
    XCTAssertThrowsError(try MatchFolder.load(folder)) { XCTAssertTrue("\($0)".contains("no detections")) }
  }
}
