import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// A standing person in image pixels (y down, about 700 px tall), by keypoint name, for every name of
/// the built-in OpenPose and COCO skeletons.
let standingPerson: [String: (x: Double, y: Double)] = [
  "head_top": (500, 100), "nose": (500, 160), "left_eye": (515, 150), "right_eye": (485, 150),
  "left_ear": (530, 160), "right_ear": (470, 160), "upper_neck": (500, 200), "neck": (500, 220),
  "left_shoulder": (560, 230), "right_shoulder": (440, 230), "left_elbow": (580, 350), "right_elbow": (420, 350),
  "left_wrist": (590, 460), "right_wrist": (410, 460), "mid_hip": (500, 480), "left_hip": (535, 480),
  "right_hip": (465, 480), "left_knee": (540, 640), "right_knee": (460, 640), "left_ankle": (545, 790),
  "right_ankle": (455, 790), "left_big_toe": (575, 805), "left_small_toe": (590, 800), "left_heel": (540, 805),
  "right_big_toe": (425, 805), "right_small_toe": (410, 800), "right_heel": (460, 805),
]

/// `count` people written in `skeleton`'s keypoint order, each shifted and jittered a little.
func people(in skeleton: Skeleton, count: Int) -> [PersonDetection2D] {
  var random = SeededGenerator(seed: 5)
  return (0..<count).map { i in
    PersonDetection2D(keypoints: skeleton.keypoints.map { name in
      let p = standingPerson[name]!
      return Keypoint2D(x: p.x + Double(40 * i) + random.uniform(-3...3), y: p.y + random.uniform(-3...3), confidence: 0.9)
    })
  }
}

final class SkeletonChoiceTests: XCTestCase {
  func testBody25bIsBuiltInInOpenPoseOrder() throws {
    // OpenPose src/openpose/pose/poseParameters.cpp, POSE_BODY_25B_BODY_PARTS: Nose, LEye, REye,
    // LEar, REar, LShoulder, RShoulder, LElbow, RElbow, LWrist, RWrist, LHip, RHip, LKnee, RKnee,
    // LAnkle, RAnkle, UpperNeck, HeadTop, LBigToe, LSmallToe, LHeel, RBigToe, RSmallToe, RHeel.
    let s = try XCTUnwrap(Skeleton.builtIn["body25b"])
    XCTAssertEqual(s.count, 25)
    XCTAssertEqual(Array(s.keypoints.prefix(17)), Skeleton.coco17.keypoints)
    XCTAssertEqual(Array(s.keypoints.suffix(8)), [
      "upper_neck", "head_top", "left_big_toe", "left_small_toe", "left_heel", "right_big_toe", "right_small_toe", "right_heel",
    ])
    XCTAssertEqual(s.bones.count, 25)
    XCTAssertEqual(s.mirrorPairs.count, 11, "eyes, ears, shoulders, elbows, wrists, hips, knees, ankles, toes ×2, heels")
    for (l, r) in s.mirrorPairs {
      XCTAssertTrue(s.keypoints[l].hasPrefix("left_"))
      XCTAssertEqual(s.keypoints[r], "right_" + s.keypoints[l].dropFirst(5))
    }
    XCTAssertEqual(Skeleton.builtInNames(keypointCount: 25), ["body25", "body25b"])
    XCTAssertEqual(Skeleton.builtInSkeletons.map(\.name), ["blazepose33", "body25", "body25b", "coco17", "halpe26"])
  }

  func testACountErrorNamesTheSkeletonsThatFitAndHowToChoose() throws {
    let frame = OpenPoseFolder.render(people(in: .body25b, count: 1))
    assertInputError(
      try OpenPoseFolder.parse(Data(frame.utf8), file: "cam01_000000000000_keypoints.json", keypointCount: 17),
      contains: [
        "person 0 has 75 numbers; expected 51 (17 keypoints", "25 keypoints fit several built-in skeletons (body25, body25b)",
        "none is picked", "skeleton = \"body25b\" in match.toml or --skeleton body25b",
      ])
    let halpe = OpenPoseFolder.render([PersonDetection2D(keypoints: Array(repeating: Keypoint2D(x: 1, y: 1, confidence: 1), count: 26))])
    assertInputError(
      try OpenPoseFolder.parse(Data(halpe.utf8), file: "f.json", keypointCount: 17),
      contains: ["26 keypoints fit the built-in skeleton halpe26: set skeleton = \"halpe26\" in match.toml or --skeleton halpe26"])
    let odd = "[{\"image_id\": 0, \"keypoints\": [" + Array(repeating: "1", count: 3 * 21).joined(separator: ",") + "]}]"
    assertInputError(
      try COCOKeypointsJSON.parse(Data(odd.utf8), file: "cam01.json", keypointCount: 17),
      contains: ["no built-in skeleton has 21 keypoints (blazepose33 33, body25 25, body25b 25, coco17 17, halpe26 26)", "[skeleton] table"])
  }

  func testAMatchWithoutASkeletonNeverPicksAmongSeveral() throws {
    let folder = try makeTemporaryFolder()
    try writeText(pose2simCalibration, to: folder.appendingPathComponent("calibration/calibration.toml"))
    try OpenPoseFolder.write(["cam01": [0: people(in: .body25b, count: 2)]], to: folder.appendingPathComponent("pose"))
    assertInputError(try MatchFolder.load(folder), contains: ["body25, body25b", "none is picked"])
    let loaded = try MatchFolder.load(folder, options: MatchFolderOptions(skeleton: "body25b"))
    XCTAssertEqual(loaded.match.skeleton.name, "body25b")
  }

  func testDetectionsReadWithTheWrongSameCountSkeletonWarn() throws {
    let asBody25b = ["cam01": Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, people(in: .body25b, count: 2)) })]
    let warning = try XCTUnwrap(SkeletonFit.diagnostic(chosen: .body25, people: asBody25b, file: "pose"))
    XCTAssertEqual(warning.severity, .warning)
    XCTAssertTrue("\(warning)".contains("the keypoints look like body25b, not body25"), "\(warning)")
    XCTAssertTrue("\(warning)".contains("--skeleton body25b"))
    XCTAssertNil(SkeletonFit.diagnostic(chosen: .body25b, people: asBody25b, file: "pose"))

    let asBody25 = ["cam01": Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, people(in: .body25, count: 2)) })]
    XCTAssertNil(SkeletonFit.diagnostic(chosen: .body25, people: asBody25, file: "pose"))
    XCTAssertTrue("\(try XCTUnwrap(SkeletonFit.diagnostic(chosen: .body25b, people: asBody25, file: "pose")))".contains("look like body25,"))
    // Too few people: no conclusion; no rival of the same count: nothing to say.
    XCTAssertNil(SkeletonFit.diagnostic(chosen: .body25, people: ["cam01": [0: people(in: .body25b, count: 3)]], file: "pose"))
    XCTAssertNil(SkeletonFit.diagnostic(chosen: .coco17, people: ["cam01": [0: people(in: .coco17, count: 30)]], file: "pose"))
  }
}

/// The newcomer case through the folder reader: OpenPose JSON files in BODY_25B order read
/// with `--skeleton body25` (same keypoint count) warn by name, where they used to load silently mislabelled.
final class SkeletonMisfitFolderTests: XCTestCase {
  func folder(people frames: [PersonDetection2D]) throws -> URL {
    let folder = try makeTemporaryFolder()
    try writeText(pose2simCalibration, to: folder.appendingPathComponent("calibration/calibration.toml"))
    let person = { (p: PersonDetection2D) in
      "{\"pose_keypoints_2d\":[" + p.keypoints.map { "\($0.x),\($0.y),\($0.confidence)" }.joined(separator: ",") + "]}"
    }
    for frame in 0..<20 {
      try writeText(
        "{\"version\":1.3,\"people\":[" + frames.map(person).joined(separator: ",") + "]}",
        to: folder.appendingPathComponent(String(format: "pose/cam01_json/cam01_%012d_keypoints.json", frame)))
    }
    return folder
  }

  func testBody25bFilesReadAsBody25Warn() throws {
    let folder = try folder(people: people(in: .body25b, count: 2))
    var options = MatchFolderOptions()
    options.skeleton = "body25"
    let messages = try MatchFolder.load(folder, options: options).diagnostics.map(\.description)
    XCTAssertTrue(messages.contains { $0.hasPrefix("warning:") && $0.contains("look like body25b, not body25") }, "\(messages)")
    options.skeleton = "body25b"
    XCTAssertFalse(try MatchFolder.load(folder, options: options).diagnostics.contains { "\($0)".contains("look like") })
  }
}
