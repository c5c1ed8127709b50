import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// Files in a pose folder that are skipped with a warning rather than stopping the match, and the
/// notes and hints of `match.toml` settings.
final class PoseFolderWarningTests: XCTestCase {
  /// Pose2Sim's demo layout: `cam03.0000.json` … and two padding files `del_000000_0.json`,
  /// `del_000001_0.json` holding `"people": []`, whose numbers read as frame 0 again.
  func demoLikeFolder() throws -> URL {
    let folder = try makeTemporaryFolder()
    let camera = folder.appendingPathComponent("cam03_json")
    for frame in 0..<3 {
      try writeText(openPoseFrame, to: camera.appendingPathComponent(String(format: "cam03.%04d.json", frame)))
    }
    try writeText("{\"version\":1.3,\"people\":[]}", to: camera.appendingPathComponent("del_000000_0.json"))
    try writeText("{\"version\":1.3,\"people\":[]}", to: camera.appendingPathComponent("del_000001_0.json"))
    return folder
  }

  func testPaddingEmptyAndUnnumberedFilesAreWarnings() throws {
    let folder = try demoLikeFolder()
    let camera = folder.appendingPathComponent("cam03_json")
    try writeText("", to: camera.appendingPathComponent("cam03.0003.json"))
    try writeText("{\"people\":[]}", to: camera.appendingPathComponent("summary.json"))
    let (people, diagnostics) = try OpenPoseFolder.readWithDiagnostics(
      cameraFolders: OpenPoseFolder.cameraFolders(in: folder), skeleton: .coco17)
    XCTAssertEqual(people["cam03"]?.keys.sorted(), [0, 1, 2])
    XCTAssertEqual(people["cam03"]?[0]?.count, 2, "the padding files do not replace the frame's people")
    let messages = diagnostics.map(\.description)
    XCTAssertTrue(diagnostics.allSatisfy { $0.severity == .warning })
    XCTAssertEqual(messages.count, 4, "\(messages)")
    XCTAssertTrue(messages.contains { $0.contains("cam03.0003.json: empty file; skipped") }, "\(messages)")
    XCTAssertTrue(messages.contains { $0.contains("del_000000_0.json: holds no people and repeats frame 0 of cam03.0000.json") })
    XCTAssertTrue(messages.contains { $0.contains("del_000001_0.json: holds no people and repeats frame 0 of cam03.0000.json") })
    XCTAssertTrue(messages.contains { $0.contains("summary.json: no frame number in the file name") })
    // Without diagnostics the same files are read.
    XCTAssertEqual(try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17)["cam03"]?.count, 3)
  }

  func testAPaddingFileBeforeTheRealOneGivesWay() throws {
    let folder = try makeTemporaryFolder()
    let camera = folder.appendingPathComponent("cam01_json")
    try writeText("{\"people\":[]}", to: camera.appendingPathComponent("a_pad_5.json"))
    try writeText(openPoseFrame, to: camera.appendingPathComponent("cam01_000000000005_keypoints.json"))
    let (people, diagnostics) = try OpenPoseFolder.readWithDiagnostics(
      cameraFolders: OpenPoseFolder.cameraFolders(in: folder), skeleton: .coco17)
    XCTAssertEqual(people["cam01"]?[5]?.count, 2)
    XCTAssertEqual(diagnostics.count, 1)
    XCTAssertTrue("\(diagnostics[0])".contains("a_pad_5.json: holds no people and repeats frame 5"), "\(diagnostics[0])")
  }

  func testTheDemoLayoutLoadsWithLooseCameraNamesAndNotes() throws {
    let folder = try makeTemporaryFolder()
    let pose = try demoLikeFolder()
    // The calibration calls the camera cam_03, as Pose2Sim's Qualisys demo does.
    try writeText(pose2simCalibration.replacingOccurrences(of: "[cam03]\nname = \"cam03\"", with: "[cam_03]\nname = \"cam_03\""),
                  to: folder.appendingPathComponent("calibration/calibration.toml"))
    let loaded = try MatchFolder.load(folder, options: MatchFolderOptions(pose: pose))
    XCTAssertEqual(loaded.match.detections["cam_03"]?.people.count, 3)
    let messages = loaded.diagnostics.map(\.description)
    XCTAssertTrue(messages.contains { $0.hasPrefix("note:") && $0.contains("camera 'cam03' taken as the calibration's 'cam_03'") }, "\(messages)")
    XCTAssertTrue(messages.contains { $0.hasPrefix("note:") && $0.contains("no sport named") && $0.contains("table-tennis") })
    XCTAssertEqual(messages.filter { $0.contains("del_00000") }.count, 2)
    XCTAssertEqual(loaded.match.sport, "table-tennis")

    // Named somewhere: no note.
    try writeText("sport = \"tennis\"\n", to: folder.appendingPathComponent("match.toml"))
    XCTAssertFalse(try MatchFolder.load(folder, options: MatchFolderOptions(pose: pose)).diagnostics.contains { "\($0)".contains("no sport") })
  }

  func testLooseCameraNamesAreNeverAmbiguous() throws {
    let folder = try makeTemporaryFolder()
    let calibration = pose2simCalibration
      .replacingOccurrences(of: "[cam03]\nname = \"cam03\"", with: "[cam_03]\nname = \"cam_03\"")
      .replacingOccurrences(of: "[cam02]\nname = \"cam02\"", with: "[cam-3]\nname = \"cam-3\"")
    try writeText(calibration, to: folder.appendingPathComponent("calibration/calibration.toml"))
    try writeText(openPoseFrame, to: folder.appendingPathComponent("pose/CAM3_json/CAM3_000000000000_keypoints.json"))
    assertInputError(try MatchFolder.load(folder), contains: ["camera 'CAM3' is not in the calibration", "it matches cam-3 and cam_03", "neither is picked"])

    try FileManager.default.removeItem(at: folder.appendingPathComponent("pose"))
    try writeText(openPoseFrame, to: folder.appendingPathComponent("pose/cam01_json/cam01_000000000000_keypoints.json"))
    try writeText("[frame_offsets]\nCam_01 = 2\n", to: folder.appendingPathComponent("match.toml"))
    XCTAssertEqual(try MatchFolder.load(folder).match.frameOffsets, ["cam01": 2])
    try writeText("[frame_offsets]\nCam_01 = 2\ncam01 = 3\n", to: folder.appendingPathComponent("match.toml"))
    assertInputError(try MatchFolder.load(folder), contains: ["[frame_offsets.cam01]: a second offset for calibrated camera 'cam01'"])
  }

  func testASkeletonNameBesideASkeletonTableGetsAHint() {
    let text = "skeleton = \"body25b\"\n\n[skeleton]\nname = \"mine\"\nkeypoints = [\"a\", \"b\"]\nbones = [[\"a\", \"b\"]]\n"
    assertInputError(
      try MatchConfig.parse(text, file: "match.toml"),
      contains: ["match.toml:3:", "not valid TOML", "either as a name, skeleton = \"body25b\" (a built-in), or as a [skeleton] table", "not both"])
    // Other TOML errors get no such hint.
    let other = assertInputError(try MatchConfig.parse("fps = \n", file: "match.toml"), contains: ["not valid TOML"])
    XCTAssertFalse(other.contains("[skeleton] table"))
  }
}
