import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// One frame as OpenPose 1.7 writes it (BODY_25 layout trimmed to COCO-17's 51 numbers per person,
/// face and hand arrays empty), two people, the second without a left ear.
let openPoseFrame = """
  {"version":1.3,"people":[{"person_id":[-1],"pose_keypoints_2d":[\
  958.2,412.7,0.93,963.1,405.9,0.91,951.4,406.2,0.9,970.6,410.3,0.84,944.8,411.0,0.87,\
  985.5,452.1,0.82,931.3,453.8,0.81,1001.2,510.6,0.77,918.4,512.9,0.79,1010.9,561.2,0.7,\
  905.0,566.4,0.72,975.3,560.0,0.75,941.6,561.7,0.74,979.8,650.2,0.8,938.1,652.5,0.78,\
  982.4,735.9,0.76,935.7,738.3,0.74],\
  "face_keypoints_2d":[],"hand_left_keypoints_2d":[],"hand_right_keypoints_2d":[],\
  "pose_keypoints_3d":[],"face_keypoints_3d":[],"hand_left_keypoints_3d":[],"hand_right_keypoints_3d":[]},
  {"person_id":[-1],"pose_keypoints_2d":[\
  1402,398,0.88,1405,391,0.86,1398,392,0.85,0,0,0,1393,396,0.8,\
  1420,440,0.8,1385,441,0.79,1431,500,0.7,1372,502,0.71,1440,551,0.6,\
  1365,553,0.62,1415,555,0.73,1390,556,0.72,1418,640,0.75,1392,642,0.74,\
  1420,725,0.7,1395,728,0.69],\
  "face_keypoints_2d":[],"hand_left_keypoints_2d":[],"hand_right_keypoints_2d":[],\
  "pose_keypoints_3d":[],"face_keypoints_3d":[],"hand_left_keypoints_3d":[],"hand_right_keypoints_3d":[]}]}
  """

final class OpenPoseFolderTests: XCTestCase {
  func person(_ random: inout SeededGenerator, missing: Set<Int> = []) -> PersonDetection2D {
    PersonDetection2D(keypoints: (0..<17).map { j in
      missing.contains(j)
        ? .missing
        : Keypoint2D(x: random.uniform(0...1919), y: random.uniform(0...1079), confidence: random.uniform(0.01...1))
    })
  }

  func testParsesAnOpenPoseFrame() throws {
    let people = try OpenPoseFolder.parse(Data(openPoseFrame.utf8), file: "f.json", keypointCount: 17)
    XCTAssertEqual(people.count, 2)
    XCTAssertEqual(people[0].keypoints[0], Keypoint2D(x: 958.2, y: 412.7, confidence: 0.93))
    XCTAssertEqual(people[0].keypoints[16], Keypoint2D(x: 935.7, y: 738.3, confidence: 0.74))
    XCTAssertEqual(people[1].keypoints[3], .missing)
    XCTAssertFalse(people[1].keypoints[3].isDetected)
    XCTAssertEqual(try OpenPoseFolder.parse(Data("{\"version\":1.3,\"people\":[]}".utf8), file: "f.json", keypointCount: 17), [])
  }

  func testFrameNumbersFromFileNames() {
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "cam01_000000000123_keypoints.json"), 123)
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "video.mp4_17_keypoints.json"), 17)
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "trial2_cam3_000042.json"), 42)
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "cam01_-000000000005_keypoints.json"), -5)
    XCTAssertNil(OpenPoseFolder.frameNumber(of: "cam01_keypoints.json"))
  }

  func message(_ text: String, count: Int = 17) -> String {
    do {
      _ = try OpenPoseFolder.parse(Data(text.utf8), file: "cam01_json/x_000000000007_keypoints.json", keypointCount: count)
      return "no error"
    } catch { return "\(error)" }
  }

  func testEmptyAndTruncatedFilesAreLocated() {
    XCTAssertTrue(message("").hasPrefix("cam01_json/x_000000000007_keypoints.json: empty file"), message(""))
    XCTAssertTrue(message(" \n").contains("empty file"))
    // Truncated: the position is the end of the file (line 2, after 6 characters).
    let truncated = message("{\"version\":1.3,\n\"people\":")
    XCTAssertTrue(truncated.hasPrefix("cam01_json/x_000000000007_keypoints.json:2:10: not valid JSON"), truncated)
    let cut = String(openPoseFrame.prefix(200))
    XCTAssertTrue(message(cut).hasPrefix("cam01_json/x_000000000007_keypoints.json:1:201:"), message(cut))
  }

  func testMalformedJSONNamesLineAndColumn() {
    let text = "{\"version\":1.3,\n\"people\":[{\"pose_keypoints_2d\":[1,2,x]}]}"
    let m = message(text)
    XCTAssertTrue(m.hasPrefix("cam01_json/x_000000000007_keypoints.json:2:37: not valid JSON"), m)
    XCTAssertTrue(message("{\"people\":[{\"pose_keypoints_2d\":[NaN]}]}").contains(":1:34:"), "NaN is not JSON")
  }

  func testWrongStructureNamesTheKey() {
    let wrongCount = message("{\"people\":[{\"pose_keypoints_2d\":[" + Array(repeating: "1", count: 51).joined(separator: ",") + "]},{\"pose_keypoints_2d\":[1,2,0.5]}]}")
    XCTAssertTrue(wrongCount.hasPrefix("cam01_json/x_000000000007_keypoints.json: [people[1].pose_keypoints_2d]"), wrongCount)
    XCTAssertTrue(wrongCount.contains("person 1 has 3 numbers; expected 51 (17 keypoints"), wrongCount)
    XCTAssertTrue(message("{\"people\":[{\"pose_keypoints_2d\":[1,2,0.5]}]}", count: 1) == "no error")
    XCTAssertTrue(message("{\"nobody\":1}").contains("[people]: missing"), message("{\"nobody\":1}"))
    XCTAssertTrue(message("{\"people\":3}").contains("[people]: wrong type; expected an array of people"))
    XCTAssertTrue(message("{\"people\":[{\"pose_keypoints_2d\":[1,null,0.5]}]}", count: 1).contains("[people[0].pose_keypoints_2d[1]]"))
    XCTAssertTrue(message("{\"people\":[{\"person_id\":[-1]}]}").contains("[people[0].pose_keypoints_2d]: missing"))
    XCTAssertTrue(message("[1,2]").contains(":1:1: wrong type; expected an object"))
  }

  func testFolderRoundTripWithinAMicroPixel() throws {
    var random = SeededGenerator(seed: 11)
    let people: [String: [Int: [PersonDetection2D]]] = [
      "cam01": [0: [person(&random), person(&random, missing: [3, 4])], 1: [person(&random)], 2: []],
      "cam02": [-2: [person(&random)], 0: [person(&random, missing: Set(0..<17))]],
    ]
    let folder = try makeTemporaryFolder()
    try OpenPoseFolder.write(people, frames: 0...3, to: folder)
    let name = folder.appendingPathComponent("cam01_json/cam01_000000000001_keypoints.json").path
    XCTAssertTrue(FileManager.default.fileExists(atPath: name))
    let back = try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17)
    XCTAssertEqual(Set(back.keys), ["cam01", "cam02"])
    XCTAssertEqual(back["cam01"]!.keys.sorted(), [0, 1, 2, 3], "frames listed in `frames` are written even when empty")
    XCTAssertEqual(back["cam02"]!.keys.sorted(), [-2, 0, 1, 2, 3])
    XCTAssertEqual(back["cam01"]![3], [])
    for (camera, frames) in people {
      for (frame, persons) in frames {
        let got = back[camera]![frame]!
        XCTAssertEqual(got.count, persons.count)
        for (a, b) in zip(persons, got) {
          for (ka, kb) in zip(a.keypoints, b.keypoints) {
            XCTAssertEqual(ka.x, kb.x, accuracy: 1e-6)
            XCTAssertEqual(ka.y, kb.y, accuracy: 1e-6)
            XCTAssertEqual(ka.confidence, kb.confidence, accuracy: 1e-6)
            XCTAssertEqual(ka.isDetected, kb.isDetected)
          }
        }
      }
    }
  }

  func testFolderWithoutJSONSuffixAndItsErrors() throws {
    let folder = try makeTemporaryFolder()
    try writeText(openPoseFrame, to: folder.appendingPathComponent("cam07/cam07_000000000010_keypoints.json"))
    try writeText("{\"people\":[]}", to: folder.appendingPathComponent("cam07/cam07_000000000011_keypoints.json"))
    try writeText("not a pose", to: folder.appendingPathComponent("cam07/notes.txt"))
    let read = try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17)
    XCTAssertEqual(read["cam07"]?[10]?.count, 2)
    XCTAssertEqual(read["cam07"]?[11], [])

    // Wrong keypoint count for the skeleton: the error names the file and the person.
    assertInputError(
      try OpenPoseFolder.read(poseFolder: folder, skeleton: .halpe26),
      contains: ["cam07_000000000010_keypoints.json: [people[0].pose_keypoints_2d]", "expected 78 (26 keypoints"])

    // Two files with people and one frame number.
    try writeText(openPoseFrame, to: folder.appendingPathComponent("cam07/other_10_keypoints.json"))
    assertInputError(
      try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17),
      contains: ["frame 10 appears twice in camera 'cam07'"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("cam07/other_10_keypoints.json"))

    // `cam07` and `cam07_json` both present.
    try writeText("{\"people\":[]}", to: folder.appendingPathComponent("cam07_json/cam07_000000000001_keypoints.json"))
    assertInputError(try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17), contains: ["camera 'cam07' has a second folder"])

    assertInputError(
      try OpenPoseFolder.read(poseFolder: folder.appendingPathComponent("nothing"), skeleton: .coco17),
      contains: ["nothing: cannot list the pose folder"])
  }

  func testReadsAThousandFilesInParallel() throws {
    // 4 cameras × 250 frames × 2 people, as the reader meets a match folder (timing is a benchmark's job).
    var random = SeededGenerator(seed: 3)
    var people: [String: [Int: [PersonDetection2D]]] = [:]
    for camera in ["cam1", "cam2", "cam3", "cam4"] {
      people[camera] = Dictionary(uniqueKeysWithValues: (0..<250).map { ($0, [person(&random), person(&random)]) })
    }
    let folder = try makeTemporaryFolder()
    try OpenPoseFolder.write(people, to: folder)
    let back = try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17)
    XCTAssertEqual(back.mapValues(\.count), ["cam1": 250, "cam2": 250, "cam3": 250, "cam4": 250])
    for (camera, frames) in people {
      for frame in [0, 137, 249] {
        XCTAssertEqual(back[camera]![frame]![1].keypoints[9].x, frames[frame]![1].keypoints[9].x, accuracy: 1e-6)
      }
    }
  }
}
