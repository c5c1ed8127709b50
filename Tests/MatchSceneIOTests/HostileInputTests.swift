import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs that crashed, hung or gave a poor error: each is now an `InputError` naming
/// the file, the key or line, and the range accepted.
final class HostileInputTests: XCTestCase {
  func testTOMLThatAbortedTheParserIsAnError() {
    for text in [
      "[[[", "[[[a]]]", "[.a]", "[#]", "[=]", "[\t.a]", "[[ .a]]", "[\n", "[é]", "x = 1\n[[[[[[[\n", "a = [1]\n[[[a]]]",
      "a = [}0]", "a = [[1], [}]]", "a = [1,\n}]", "t = { a = [ } ] }", "\u{FEFF}[[[",
    ] {
      assertInputError(try TOMLDocument(text: text, file: "match.toml"), contains: ["match.toml:", "not valid TOML"])
    }
    assertInputError(try TOMLDocument(text: "\n[[[", file: "m.toml"), contains: ["m.toml:2:3: not valid TOML: a table header", "got '['"])
    assertInputError(try TOMLDocument(text: "[\n", file: "m.toml"), contains: ["m.toml:1:2:", "got a line break"])
    // Keys so deeply dotted that building the tables overflowed the stack.
    let deep = "a" + String(repeating: ".a", count: 50_000)
    assertInputError(try TOMLDocument(text: deep + " = 1", file: "m.toml"), contains: ["m.toml:1:1:", "more than 64 dotted parts"])
    assertInputError(try TOMLDocument(text: "[" + deep + "]", file: "m.toml"), contains: ["more than 64 dotted parts"])
    assertInputError(try TOMLDocument(text: "t = {" + deep + " = 1}", file: "m.toml"), contains: ["more than 64 dotted parts"])
    // Brackets deeper than toml++'s limit are its error, not a crash.
    assertInputError(try TOMLDocument(text: "a = " + String(repeating: "[", count: 50_000), file: "m.toml"), contains: ["nested"])
  }

  /// Inputs found by `Tests/Fuzz/run.sh` that trapped: each is now an error naming its place.
  func testInputsFoundByFuzzing() {
    // A key holding a multi-line string, then too many dots: the error's place lay on an earlier line than
    // the scanner and the column's range was inverted.
    let key = "k.\"\"\"\n\"\"\"" + String(repeating: ".a", count: 70) + " = 1"
    assertInputError(try TOMLDocument(text: key, file: "drill.toml"), contains: ["drill.toml:1:1:", "more than 64 dotted parts"])
    assertInputError(try TOMLDocument(text: "x = 1\n" + key, file: "z.toml"), contains: ["z.toml:2:1:", "more than 64 dotted parts"])
    // Times whose frame is beyond Int: the conversion trapped.
    let arkit = #"{"frames": [{"time": 0, "joints": {}}, {"time": 1e300, "joints": {}}]}"#
    assertInputError(try ARKitBodyJSON.parse(Data(arkit.utf8), file: "body.json", fps: 60),
                     contains: ["body.json: [frames[1].time]: time 1e+300 s is frame", "outside the accepted −100000000…100000000"])
    let world = #"[{"time": 0, "pose_world_landmarks": []}, {"time": -1e300, "pose_world_landmarks": []}]"#
    assertInputError(try MediaPipeWorldJSON.parse(Data(world.utf8), file: "world.json", fps: 30),
                     contains: ["world.json: [[0].time]: time 0.0 s is frame 3e+301 (at 30.0 fps from the first time, -1e+300 s)"])
  }

  func testValidTOMLWithBracketsInOtherPlacesStillParses() throws {
    let text = """
      a = [
      [[[1]]],
      ]
      s = \"\"\"
      [[[
      \"\"\"
      l = '''
      [.x]'''
      q = "[[[" # [[[
      [ "quoted key" ]
      b = 1
      [[ list ]]
      c = { d = [[1, 2]], "e.f" = 2 }
      [x.y.z]
      """
    let doc = try TOMLDocument(text: text, file: "ok.toml")
    XCTAssertEqual(doc.root["q"]?.string, "[[[")
    XCTAssertEqual(doc.root["quoted key"]?.table?["b"]?.int, 1)
    XCTAssertNotNil(doc.root["x"]?.table?["y"]?.table?["z"])
    let sixtyFour = (0..<64).map { "k\($0)" }.joined(separator: ".")
    XCTAssertNoThrow(try TOMLDocument(text: sixtyFour + " = 1", file: "ok.toml"))
  }

  func testMatchTOMLValuesOutOfRange() {
    for value in ["9223372036854775807", "-9223372036854775808", "10000001"] {
      assertInputError(
        try MatchConfig.parse("[frame_offsets]\ncam01 = \(value)\n", file: "match.toml"),
        contains: ["match.toml: [frame_offsets.cam01]: a frame offset must be within ±10000000 frames, got \(value)"])
    }
    XCTAssertEqual(try MatchConfig.parse("[frame_offsets]\ncam01 = -10000000\n", file: "m").frameOffsets["cam01"], -10_000_000)
    for value in ["1e300", "1e-300", "0.5", "10001", "-60"] {
      assertInputError(try MatchConfig.parse("fps = \(value)", file: "match.toml"),
                       contains: ["match.toml: [fps]: must be within 1–10000 frames per second"])
    }
    for value in ["inf", "nan", "-inf"] {
      assertInputError(try MatchConfig.parse("fps = \(value)", file: "match.toml"), contains: ["match.toml: [fps]:", "finite"])
    }
    XCTAssertEqual(try MatchConfig.parse("fps = 10000", file: "m").fps, 10000)
  }

  func testAFrameRateOptionOutOfRange() throws {
    let folder = try makeTemporaryFolder()
    for fps in [1e-5, 1e300, .infinity] {
      var options = MatchFolderOptions()
      options.fps = fps
      assertInputError(try MatchFolder.load(folder, options: options), contains: ["fps option", "within 1–10000 frames per second"])
    }
  }

  func testFrameNumbersBeyondTheLimit() throws {
    let folder = try makeTemporaryFolder()
    try writeText(openPoseFrame, to: folder.appendingPathComponent("cam01_json/cam01_1000000000000_keypoints.json"))
    assertInputError(
      try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17),
      contains: ["cam01_1000000000000_keypoints.json: the frame number in the file name is 1000000000000, outside the accepted −100000000…100000000"])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("cam01_json/cam01_1000000000000_keypoints.json"))
    try writeText(openPoseFrame, to: folder.appendingPathComponent("cam01_json/cam01_100000000000000000000_keypoints.json"))
    assertInputError(try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17),
                     contains: ["the frame number in the file name is 100000000000000000000, outside the accepted"])
    let coco = "[{\"image_id\": 1000000000000, \"keypoints\": [" + Array(repeating: "1", count: 51).joined(separator: ",") + "]}]"
    assertInputError(try COCOKeypointsJSON.parse(Data(coco.utf8), file: "cam01.json", keypointCount: 17),
                     contains: ["cam01.json: [[0].image_id]: the frame (image_id) is 1000000000000, outside"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0,1,5,5\n100000001,1,5,5\n", file: "cam01.csv"),
                     contains: ["cam01.csv:3: Frame is 100000001, outside the accepted"])
  }

  func testKeypointsFarOutsideAnyImage() {
    let far = openPoseFrame.replacingOccurrences(of: "958.2,412.7,0.93", with: "1e308,412.7,0.93")
    assertInputError(try OpenPoseFolder.parse(Data(far.utf8), file: "f.json", keypointCount: 17),
                     contains: ["f.json: [people[0].pose_keypoints_2d[0]]: keypoint 0 of person 0 lies at (1e+308, 412.7), outside the accepted ±1000000 px"])
    let coco = "[{\"image_id\": 0, \"keypoints\": [1e300, 5, 1" + String(repeating: ", 1", count: 48) + "]}]"
    assertInputError(try COCOKeypointsJSON.parse(Data(coco.utf8), file: "c.json", keypointCount: 17),
                     contains: ["c.json: [[0].keypoints[0]]: keypoint 0 lies at (1e+300, 5.0)"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0,1,5,-2e6\n", file: "b.csv"),
                     contains: ["b.csv:2: X, Y = 5.0, -2000000.0 lie outside the accepted ±1000000 px"])
  }

  func testACOCOCategoryTooBigForAnInteger() {
    let entry = "[{\"image_id\": 0, \"category_id\": 1e30, \"keypoints\": [" + Array(repeating: "1", count: 51).joined(separator: ",") + "]}]"
    assertInputError(try COCOKeypointsJSON.parse(Data(entry.utf8), file: "cam01.json", keypointCount: 17),
                     contains: ["cam01.json: [[0].category_id]: expected a whole number within 0…2147483647 (1 for person), got 1e+30"])
  }

  func testYAMLNestedTooDeep() {
    let flow = "%YAML:1.0\n---\nnames: " + String(repeating: "[", count: 50_000) + "\n"
    assertInputError(try OpenCVYAML(text: flow, file: "intri.yml"), contains: ["intri.yml:3:", "nested more than 64 deep"])
    var block = "%YAML:1.0\n---\n"
    for depth in 0..<70 { block += String(repeating: " ", count: depth) + "k\(depth):\n" }
    block += String(repeating: " ", count: 70) + "leaf: 1\n"
    assertInputError(try OpenCVYAML(text: block, file: "intri.yml"), contains: ["intri.yml:", "nested more than 64 deep"])
  }

  func testCalibrationNumbersOutOfRangeNameTheKey() {
    func toml(_ old: String, _ new: String) -> String {
      precondition(pose2simCalibration.contains(old), old)
      return pose2simCalibration.replacingOccurrences(of: old, with: new)
    }
    let translation = toml("translation = [ -0.3, 0.8, 4.3,]", "translation = [ -0.3, 1e308, 4.3,]")
    assertInputError(try CalibrationTOML.parse(translation, file: "c.toml"),
                     contains: ["c.toml: [cam04.translation]: extrinsics out of range: translation y = 1e+308 m; accepted |t| ≤ 10000 m"])
    let rotation = toml("rotation = [ 1.5011, -0.8221, 0.6120,]", "rotation = [ 1e300, -0.8221, 0.6120,]")
    assertInputError(try CalibrationTOML.parse(rotation, file: "c.toml"),
                     contains: ["c.toml: [cam02.rotation]: extrinsics out of range: Rodrigues vector", "accepted |r| ≤ 100"])
    let denormal = toml("[ [ 1405, 0, 960, ], [ 0, 1405, 540, ], [ 0, 0, 1, ], ]", "[ [ 5e-324, 0, 960, ], [ 0, 1405, 540, ], [ 0, 0, 1, ], ]")
    assertInputError(try CalibrationTOML.parse(denormal, file: "c.toml"),
                     contains: ["c.toml: [cam03.matrix]: intrinsics out of range: focal length fx = 5e-324 px; accepted 1–1000000 px"])

    let cameras = try! CalibrationTOML.parse(pose2simCalibration, file: "c.toml").filter { $0.lensModel == .pinhole }
    let yml = try! EasyMocapCalibration.render(cameras)
    let t = "T_cam01: !!opencv-matrix\n  rows: 3\n  cols: 1\n  dt: d\n  data: ["
    XCTAssertTrue(yml.extri.contains(t + "\(cameras[0].camFromWorld.translation.x), "))
    let far = yml.extri.replacingOccurrences(of: t + "\(cameras[0].camFromWorld.translation.x), ", with: t + "1e308, ")
    assertInputError(try EasyMocapCalibration.parse(intri: yml.intri, extri: far),
                     contains: ["extri.yml: [T_cam01]: extrinsics out of range: translation x = 1e+308 m"])
  }

  func testAPoseFolderWithANameThatIsNotUTF8() throws {
    let folder = try makeTemporaryFolder()
    try writeText(openPoseFrame, to: folder.appendingPathComponent("cam01_json/cam01_000000000000_keypoints.json"))
    var bytes = Array(folder.path.utf8) + Array("/cam".utf8) + [0xFF] + Array("_json".utf8)
    bytes.append(0)
    XCTAssertEqual(bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }, 0)
    assertInputError(try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17),
                     contains: ["cam�_json: a name that is not valid UTF-8", "rename it"])
    assertInputError(try PoseFolder.sources(in: folder), contains: ["not valid UTF-8"])
  }
}
