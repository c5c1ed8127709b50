import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class MatchFolderTests: XCTestCase {
  /// The fixture calibration's 4 cameras, frames 0…4 of people and ball (the ball unseen at 2),
  /// cam02 running 3 frames ahead.
  func sampleMatch() throws -> Match {
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "c.toml")
    var random = SeededGenerator(seed: 21)
    var detections: [String: CameraDetections] = [:]
    let offsets = ["cam02": 3]
    for camera in cameras {
      var d = CameraDetections()
      let offset = offsets[camera.name] ?? 0
      for f in 0..<5 {
        d.people[f + offset] = (0..<(f == 1 ? 0 : 2)).map { _ in
          PersonDetection2D(keypoints: (0..<17).map { j in
            j == 4 ? .missing : Keypoint2D(x: random.uniform(0...1919), y: random.uniform(0...1079), confidence: random.uniform(0.1...1))
          })
        }
        if f != 2 { d.balls[f + offset] = [BallDetection2D(x: random.uniform(0...1919), y: random.uniform(0...1079))] }
      }
      detections[camera.name] = d
    }
    return Match(sport: "table-tennis", fps: 120, skeleton: .coco17, cameras: cameras, frameOffsets: offsets,
                 detections: detections, worldUp: SIMD3(0, 1, 0))
  }

  func assertSameDetections(_ a: CameraDetections?, _ b: CameraDetections?, file: StaticString = #filePath, line: UInt = #line) {
    guard let a, let b else { return XCTFail("missing detections", file: file, line: line) }
    XCTAssertEqual(a.people.keys.sorted(), b.people.keys.sorted(), file: file, line: line)
    XCTAssertEqual(a.balls.keys.sorted(), b.balls.keys.sorted(), file: file, line: line)
    for (frame, people) in a.people {
      XCTAssertEqual(people.count, b.people[frame]?.count, file: file, line: line)
      for (p, q) in zip(people, b.people[frame] ?? []) {
        for (k, l) in zip(p.keypoints, q.keypoints) {
          XCTAssertEqual(k.x, l.x, accuracy: 1e-6, file: file, line: line)
          XCTAssertEqual(k.y, l.y, accuracy: 1e-6, file: file, line: line)
          XCTAssertEqual(k.confidence, l.confidence, accuracy: 1e-6, file: file, line: line)
        }
      }
    }
    for (frame, balls) in a.balls {
      for (p, q) in zip(balls, b.balls[frame] ?? []) {
        XCTAssertEqual(p.x, q.x, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(p.confidence, q.confidence, accuracy: 1e-6, file: file, line: line)
      }
    }
  }

  func testWriteThenLoadGivesTheSameMatch() throws {
    let folder = try makeTemporaryFolder()
    let match = try sampleMatch()
    try MatchFolder.write(match, to: folder, frames: 0...4)
    for path in ["calibration/calibration.toml", "pose/cam02_json/cam02_000000000007_keypoints.json", "ball/cam04.csv", "match.toml"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), path)
    }
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.match.fps, 120)
    XCTAssertEqual(loaded.match.sport, "table-tennis")
    XCTAssertEqual(loaded.match.skeleton, .coco17)
    XCTAssertEqual(loaded.match.worldUp, SIMD3(0, 1, 0))
    XCTAssertEqual(loaded.match.frameOffsets, ["cam02": 3])
    XCTAssertEqual(loaded.match.cameras.map(\.name), match.cameras.map(\.name))
    for (a, b) in zip(loaded.match.cameras, match.cameras) {
      XCTAssertEqual(a.fx, b.fx)
      XCTAssertEqual(a.distortion, b.distortion)
      XCTAssertEqual(a.lensModel, b.lensModel)
      XCTAssertEqual(a.camFromWorld.translation, b.camFromWorld.translation)
      for i in 0..<9 { XCTAssertEqual(a.camFromWorld.rotation.m[i], b.camFromWorld.rotation.m[i], accuracy: 1e-12) }
    }
    XCTAssertEqual(loaded.commonFrames, 0...4, "cam02's frames 3…7 are match frames 0…4")
    XCTAssertEqual(loaded.cameraFrames["cam02"], 0...4)
    XCTAssertTrue(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    for camera in match.cameras {
      assertSameDetections(loaded.match.detections[camera.name], match.detections[camera.name])
    }
  }

  func testOptionsOverrideMatchTOMLAndDefaultsComeLast() throws {
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    let overridden = try MatchFolder.load(folder, options: MatchFolderOptions(fps: 50, sport: "tennis"))
    XCTAssertEqual(overridden.match.fps, 50)
    XCTAssertEqual(overridden.match.sport, "tennis")
    try writeText("up = \"z\"\n", to: folder.appendingPathComponent("match.toml"))
    let defaults = try MatchFolder.load(folder)
    XCTAssertEqual(defaults.match.fps, 60)
    XCTAssertEqual(defaults.match.sport, "table-tennis")
    XCTAssertEqual(defaults.match.skeleton, .coco17)
    XCTAssertEqual(defaults.match.frameOffsets, [:])
    XCTAssertEqual(defaults.cameraFrames["cam02"], 3...7, "without the offset cam02 covers its own frames")
  }

  func testUnknownCameraInPoseOrBallIsAnErrorListingTheCalibratedOnes() throws {
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("pose/cam02_json"), to: folder.appendingPathComponent("pose/cam09_json"))
    assertInputError(try MatchFolder.load(folder), contains: [
      "pose/cam09_json: camera 'cam09' is not in the calibration", "calibration.toml (it has: cam01, cam02, cam03, cam04)",
    ])
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("pose/cam09_json"), to: folder.appendingPathComponent("pose/cam02_json"))
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("ball/cam03.csv"), to: folder.appendingPathComponent("ball/side.csv"))
    assertInputError(try MatchFolder.load(folder), contains: ["ball/side.csv: camera 'side' is not in the calibration"])
  }

  func testDifferentFrameRangesWarnAndUseTheCommonRange() throws {
    let folder = try makeTemporaryFolder()
    let match = try sampleMatch()
    try MatchFolder.write(match, to: folder, frames: 0...4)
    try TrackNetCSV.write(match.detections["cam03"]!.balls, frames: -2...7, to: folder.appendingPathComponent("ball/cam03.csv"))
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.commonFrames, 0...4)
    XCTAssertEqual(loaded.cameraFrames["cam03"], -2...7)
    XCTAssertEqual(loaded.diagnostics.count, 1)
    let warning = "\(loaded.diagnostics[0])"
    XCTAssertTrue(warning.hasPrefix("warning: \(folder.path): cameras cover different match frames"), warning)
    XCTAssertTrue(warning.contains("cam01 0–4, cam02 0–4, cam03 -2–7, cam04 0–4); using the common range 0–4"), warning)
    XCTAssertEqual(loaded.match.detections["cam03"]?.balls.count, 4, "all data is kept")
  }

  func testCalibratedCameraWithoutDetectionsIsAWarning() throws {
    let folder = try makeTemporaryFolder()
    var match = try sampleMatch()
    match.detections["cam04"] = nil
    try MatchFolder.write(match, to: folder, frames: 0...4)
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.diagnostics.map(\.severity), [.warning])
    XCTAssertTrue("\(loaded.diagnostics[0])".contains("calibration.toml: [cam04]: calibrated camera has no detections"), "\(loaded.diagnostics)")
    XCTAssertNil(loaded.match.detections["cam04"])
    XCTAssertEqual(loaded.commonFrames, 0...4)
  }

  func testCalibrationFolderChoices() throws {
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    let calibration = folder.appendingPathComponent("calibration")
    try writeText(pose2simCalibration, to: calibration.appendingPathComponent("old.toml"))
    XCTAssertEqual(try MatchFolder.load(folder).match.cameras.count, 4, "calibration.toml wins among several")
    try FileManager.default.moveItem(at: calibration.appendingPathComponent("calibration.toml"), to: calibration.appendingPathComponent("new.toml"))
    assertInputError(try MatchFolder.load(folder), contains: ["calibration: several calibration files (new.toml, old.toml)"])
    try FileManager.default.removeItem(at: calibration.appendingPathComponent("old.toml"))
    XCTAssertEqual(try MatchFolder.load(folder).match.cameras.count, 4, "a single .toml of any name")
    let options = MatchFolderOptions(calibration: folder.appendingPathComponent("elsewhere.toml"))
    assertInputError(try MatchFolder.load(folder, options: options), contains: ["elsewhere.toml: cannot read the file"])
  }

  func testMissingPartsAndBadSettingsAreClearErrors() throws {
    let folder = try makeTemporaryFolder()
    assertInputError(try MatchFolder.load(folder.appendingPathComponent("nope")), contains: ["nope: not a folder"])
    assertInputError(try MatchFolder.load(folder), contains: ["calibration: no calibration folder"])
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    assertInputError(try MatchFolder.load(folder, options: MatchFolderOptions(skeleton: "coco18")),
                     contains: ["unknown skeleton 'coco18'; known: blazepose33, body25, body25b, coco, coco17, halpe26, mediapipe"])
    try writeText("skeleton = \"body26\"\nfsp = 50\n", to: folder.appendingPathComponent("match.toml"))
    assertInputError(try MatchFolder.load(folder), contains: ["match.toml: [skeleton]: unknown skeleton 'body26'"])
    try writeText("fsp = 50\n", to: folder.appendingPathComponent("match.toml"))
    XCTAssertTrue("\(try MatchFolder.load(folder).diagnostics)".contains("[fsp]: unknown key, ignored"))
    try writeText("[frame_offsets]\ncam05 = 2\n", to: folder.appendingPathComponent("match.toml"))
    assertInputError(try MatchFolder.load(folder), contains: ["match.toml: [frame_offsets.cam05]: camera 'cam05' is not in the calibration"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("match.toml"))
    assertInputError(try MatchFolder.load(folder, options: MatchFolderOptions(pose: folder.appendingPathComponent("poses"))),
                     contains: ["poses: no such folder"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ball"))
    XCTAssertEqual(try MatchFolder.load(folder).match.detections["cam01"]?.balls, [:], "ball/ is optional")
    try FileManager.default.removeItem(at: folder.appendingPathComponent("pose"))
    assertInputError(try MatchFolder.load(folder), contains: ["no detections: neither", "pose nor", "ball exists"])
  }

  func testAMalformedFileInsideTheFolderIsNamed() throws {
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(try sampleMatch(), to: folder, frames: 0...4)
    let file = folder.appendingPathComponent("pose/cam03_json/cam03_000000000002_keypoints.json")
    try writeText("{\"version\":1.3,\"people\":[{\"pose_keypoints_2d\":[1,2,", to: file)
    assertInputError(try MatchFolder.load(folder), contains: ["cam03_000000000002_keypoints.json:1:", "not valid JSON"])
  }
}
