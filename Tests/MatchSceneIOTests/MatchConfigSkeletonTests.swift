import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class MatchConfigSkeletonTests: XCTestCase {
  let table = """
    fps = 100

    [skeleton]
    name = "paddle-player"
    keypoints = ["head", "left_hand", "right_hand", "hip", "LFoot", "RFoot"]
    bones = [["head", "hip"], ["hip", "left_hand"], ["hip", "right_hand"]]
    """

  func testParsesATableAndDerivesMirrorPairs() throws {
    let config = try MatchConfig.parse(table, file: "match.toml")
    XCTAssertEqual(config.skeleton, "paddle-player", "the name stays available as before")
    let skeleton = try XCTUnwrap(config.customSkeleton)
    XCTAssertEqual(skeleton.keypoints.count, 6)
    XCTAssertEqual(skeleton.bones.map { [$0.0, $0.1] }, [[0, 3], [3, 1], [3, 2]])
    XCTAssertEqual(skeleton.mirrorPairs.map { [$0.0, $0.1] }, [[1, 2], [4, 5]], "left_X ↔ right_X and LX ↔ RX")
    let explicit = try MatchConfig.parse(table + "\nmirror = [[\"RFoot\", \"LFoot\"]]\n", file: "match.toml")
    XCTAssertEqual(explicit.customSkeleton?.mirrorPairs.map { [$0.0, $0.1] }, [[5, 4]])
    XCTAssertNil(try MatchConfig.parse("skeleton = \"coco17\"", file: "match.toml").customSkeleton)
  }

  func testRoundTripWritesTheTable() throws {
    let config = try MatchConfig.parse(table, file: "match.toml")
    let text = config.render()
    XCTAssertFalse(text.contains("skeleton = "), text)
    XCTAssertTrue(text.contains("[skeleton]\nname = \"paddle-player\"\n"), text)
    XCTAssertEqual(try MatchConfig.parse(text, file: "match.toml"), config)
    let built = MatchConfig(fps: 50, frameOffsets: ["cam02": 1], customSkeleton: config.customSkeleton)
    XCTAssertEqual(built.skeleton, "paddle-player")
    XCTAssertEqual(try MatchConfig.parse(built.render(), file: "match.toml"), built, "[skeleton] before [frame_offsets]")
  }

  func testBadTablesNameTheKey() {
    func expect(_ body: String, _ pieces: [String], line: UInt = #line) {
      assertInputError(try MatchConfig.parse("[skeleton]\n" + body, file: "match.toml"), contains: ["match.toml: "] + pieces, line: line)
    }
    expect("keypoints = [\"a\", \"b\"]\nbones = []", ["[skeleton.name]: missing"])
    expect("name = \"\"\nkeypoints = [\"a\", \"b\"]\nbones = []", ["[skeleton.name]: must not be empty"])
    expect("name = \"x\"\nkeypoints = [\"a\"]\nbones = []", ["[skeleton.keypoints]: expected at least 2 keypoint names, got 1"])
    expect("name = \"x\"\nkeypoints = [\"a\", \"b\", \"a\"]\nbones = []", ["[skeleton.keypoints]: keypoint 'a' is listed twice"])
    expect("name = \"x\"\nkeypoints = [\"a\", 2]\nbones = []", ["[skeleton.keypoints]: element 2 is not a string"])
    expect("name = \"x\"\nkeypoints = [\"a\", \"b\"]", ["[skeleton.bones]: missing"])
    expect("name = \"x\"\nkeypoints = [\"a\", \"b\"]\nbones = [[\"a\", \"c\"]]", ["[skeleton.bones]: pair 1 names 'c', which is not in keypoints"])
    expect("name = \"x\"\nkeypoints = [\"a\", \"b\"]\nbones = [[\"a\"]]", ["[skeleton.bones]: element 1 is not a pair"])
    expect("name = \"x\"\nkeypoints = [\"a\", \"b\"]\nbones = []\nmirror = [[\"a\", \"a\"]]", ["[skeleton.mirror]: pair 1 joins 'a' to itself"])
  }

  func testMatchFolderRoundTripsACustomSkeleton() throws {
    let skeleton = Skeleton(
      name: "paddle-player", keypoints: ["head", "left_hand", "right_hand", "hip"],
      bones: [("head", "hip"), ("hip", "left_hand")], mirrorPairs: [("left_hand", "right_hand")])
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "c.toml")
    let person = PersonDetection2D(keypoints: (0..<4).map { Keypoint2D(x: Double(100 * $0), y: 50, confidence: 0.5) })
    let detections = Dictionary(uniqueKeysWithValues: cameras.map { ($0.name, CameraDetections(people: [0: [person], 1: [person]])) })
    let match = Match(fps: 60, skeleton: skeleton, cameras: cameras, detections: detections)
    let folder = try makeTemporaryFolder()
    try MatchFolder.write(match, to: folder, frames: 0...1)
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.match.skeleton, skeleton)
    XCTAssertEqual(loaded.match.detections["cam03"]?.people[1], [person])
    XCTAssertTrue(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    // The command line may still pick a built-in skeleton by name.
    assertInputError(try MatchFolder.load(folder, options: MatchFolderOptions(skeleton: "coco17")),
                     contains: ["expected 51 (17 keypoints"])
    // A typo inside the table is a warning, not an error.
    let config = folder.appendingPathComponent("match.toml")
    try writeText(try String(contentsOf: config, encoding: .utf8) + "mirrors = []\n", to: config)
    XCTAssertTrue("\(try MatchFolder.load(folder).diagnostics)".contains("[skeleton.mirrors]: unknown key, ignored"))

    var broken = match
    broken.skeleton = Skeleton(name: "one", keypoints: ["a"], bones: [])
    assertInputError(try MatchFolder.write(broken, to: folder, frames: 0...1),
                     contains: ["match.toml: [skeleton.keypoints]: expected at least 2 keypoint names"])
  }
}
