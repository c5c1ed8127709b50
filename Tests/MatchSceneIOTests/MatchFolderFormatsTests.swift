import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// Match folders whose cameras use different pose formats and an EasyMocap calibration.
final class MatchFolderFormatsTests: XCTestCase {
  /// cam01–cam03 of the fixture calibration, frames 0…5 with two people (some keypoints missing),
  /// nobody in cam02's frame 2; cam02 runs 3 frames ahead.
  func sampleMatch() throws -> Match {
    let cameras = Array(try CalibrationTOML.parse(pose2simCalibration, file: "c.toml").prefix(3))
    var random = SeededGenerator(seed: 5)
    var detections: [String: CameraDetections] = [:]
    let offsets = ["cam02": 3]
    for camera in cameras {
      var d = CameraDetections()
      let offset = offsets[camera.name] ?? 0
      for f in 0...5 {
        d.people[f + offset] = camera.name == "cam02" && f == 2 ? [] : (0..<2).map { p in
          PersonDetection2D(keypoints: (0..<17).map { j in
            (j + f + p) % 7 == 0 ? .missing : Keypoint2D(x: random.uniform(0...1919), y: random.uniform(0...1079), confidence: random.uniform(0.1...1))
          })
        }
        d.balls[f + offset] = [BallDetection2D(x: random.uniform(0...1919), y: random.uniform(0...1079))]
      }
      detections[camera.name] = d
    }
    return Match(fps: 120, cameras: cameras, frameOffsets: offsets, detections: detections)
  }

  /// An all-OpenPose folder and the same match with cam02 as COCO results, cam03 as DeepLabCut CSV
  /// and the calibration as EasyMocap YAML.
  func folders() throws -> (reference: URL, mixed: URL) {
    let fm = FileManager.default
    let reference = try makeTemporaryFolder(), mixed = try makeTemporaryFolder()
    let match = try sampleMatch()
    try MatchFolder.write(match, to: reference, frames: 0...5)
    let loaded = try MatchFolder.load(reference).match
    try fm.createDirectory(at: mixed.appendingPathComponent("pose"), withIntermediateDirectories: true)
    for path in ["pose/cam01_json", "ball", "match.toml"] {
      try fm.copyItem(at: reference.appendingPathComponent(path), to: mixed.appendingPathComponent(path))
    }
    try EasyMocapCalibration.write(match.cameras, to: mixed.appendingPathComponent("calibration"))
    try writeText(renderCOCOResults(loaded.detections["cam02"]!.people), to: mixed.appendingPathComponent("pose/cam02.json"))
    try writeText(renderDeepLabCut(loaded.detections["cam03"]!.people, skeleton: .coco17), to: mixed.appendingPathComponent("pose/cam03.csv"))
    return (reference, mixed)
  }

  func testMixedFormatsGiveTheSameDetectionsAsOpenPose() throws {
    let (reference, mixed) = try folders()
    let a = try MatchFolder.load(reference), b = try MatchFolder.load(mixed)
    XCTAssertTrue(b.diagnostics.isEmpty, "\(b.diagnostics)")
    XCTAssertEqual(b.commonFrames, a.commonFrames)
    XCTAssertEqual(b.cameraFrames, a.cameraFrames)
    XCTAssertEqual(b.match.frameOffsets, ["cam02": 3])
    XCTAssertEqual(b.match.cameras.map(\.name), a.match.cameras.map(\.name))
    for (x, y) in zip(a.match.cameras, b.match.cameras) {
      XCTAssertEqual(x.imageSize, y.imageSize)
      XCTAssertEqual([x.fx, x.fy, x.cx, x.cy] + x.distortion, [y.fx, y.fy, y.cx, y.cy] + y.distortion)
      XCTAssertEqual(x.camFromWorld.translation, y.camFromWorld.translation)
      for i in 0..<9 { XCTAssertEqual(x.camFromWorld.rotation.m[i], y.camFromWorld.rotation.m[i], accuracy: 1e-12) }
    }
    XCTAssertEqual(a.match.detections["cam02"]?.people[5], [], "OpenPose keeps the empty frame…")
    XCTAssertNil(b.match.detections["cam02"]?.people[5], "…which COCO results cannot hold")
    for camera in ["cam01", "cam02", "cam03"] {
      let x = a.match.detections[camera]!, y = b.match.detections[camera]!
      XCTAssertEqual(x.balls, y.balls)
      for frame in Set(x.people.keys).union(y.people.keys) {
        let p = x.people[frame] ?? [], q = y.people[frame] ?? []
        XCTAssertEqual(p.count, q.count, "\(camera) frame \(frame)")
        for (s, t) in zip(p, q) {
          for (k, l) in zip(s.keypoints, t.keypoints) {
            XCTAssertEqual(k.isDetected, l.isDetected, "\(camera) frame \(frame)")
            XCTAssertEqual(k.x, l.x, accuracy: 1e-9)
            XCTAssertEqual(k.y, l.y, accuracy: 1e-9)
            XCTAssertEqual(k.confidence, l.confidence, accuracy: 1e-9)
          }
        }
      }
    }
  }

  func testCalibrationMayBeGivenAsEitherYAMLFileOrItsFolder() throws {
    let (_, mixed) = try folders()
    let calibration = mixed.appendingPathComponent("calibration")
    for url in [calibration, calibration.appendingPathComponent("intri.yml"), calibration.appendingPathComponent("extri.yml")] {
      XCTAssertEqual(try MatchFolder.load(mixed, options: MatchFolderOptions(calibration: url)).match.cameras.count, 3, url.path)
    }
    try writeText(pose2simCalibration, to: calibration.appendingPathComponent("calibration.toml"))
    XCTAssertEqual(try MatchFolder.load(mixed).match.cameras.count, 4, "a .toml wins over the YAML pair")
    try FileManager.default.removeItem(at: calibration.appendingPathComponent("calibration.toml"))
    try FileManager.default.removeItem(at: calibration.appendingPathComponent("extri.yml"))
    assertInputError(try MatchFolder.load(mixed), contains: ["calibration/intri.yml: EasyMocap calibration without its extri.yml"])
    assertInputError(try MatchFolder.load(mixed, options: MatchFolderOptions(calibration: calibration.appendingPathComponent("intri.yml"))),
                     contains: ["calibration/extri.yml: cannot read the file"])
  }

  func testFolderErrorsNameTheFiles() throws {
    let (_, mixed) = try folders()
    let pose = mixed.appendingPathComponent("pose")
    try writeText("scorer,S\n", to: pose.appendingPathComponent("cam01.csv"))
    assertInputError(try MatchFolder.load(mixed), contains: [
      "pose/cam01.csv: camera 'cam01' has detections in two formats: DeepLabCut CSV (\(pose.path)/cam01.csv)",
      "OpenPose JSON folder (\(pose.path)/cam01_json); keep one",
    ])
    try FileManager.default.removeItem(at: pose.appendingPathComponent("cam01.csv"))

    try writeText("[]", to: pose.appendingPathComponent("cam09.json"))
    assertInputError(try MatchFolder.load(mixed), contains: [
      "pose/cam09.json: camera 'cam09' is not in the calibration", "calibration/intri.yml (it has: cam01, cam02, cam03)",
    ])
    try FileManager.default.removeItem(at: pose.appendingPathComponent("cam09.json"))

    let coco = pose.appendingPathComponent("cam02.json")
    try writeText(String(try String(contentsOf: coco, encoding: .utf8).prefix(120)), to: coco)
    assertInputError(try MatchFolder.load(mixed), contains: ["pose/cam02.json:1:", "not valid JSON"])
    try writeText("[{\"image_id\": 0, \"keypoints\": [1, 2, 0.5]}]", to: coco)
    assertInputError(try MatchFolder.load(mixed), contains: ["pose/cam02.json: [[0].keypoints]: has 3 numbers; expected 51"])
    try FileManager.default.removeItem(at: coco)

    try FileManager.default.moveItem(at: pose.appendingPathComponent("cam03.csv"), to: pose.appendingPathComponent("cam03.mediapipe.json"))
    assertInputError(try MatchFolder.load(mixed), contains: [
      "pose/cam03.mediapipe.json: MediaPipe landmarks are BlazePose's 33 points but the skeleton is 'coco17'",
      "set skeleton = \"blazepose33\"",
    ])
  }
}
