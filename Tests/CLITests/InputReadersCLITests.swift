import Foundation
import MatchSceneCore
import TestSupport
import XCTest

/// The built `matchscene` on the inputs of issues 11 §8 and 16 §3: TOML that aborted the process,
/// an unknown sport, the default sport, a match folder in Pose2Sim's demo layout with a Qualisys calibration.
final class InputReadersCLITests: XCTestCase {
  /// A match folder with one calibrated camera and one OpenPose frame.
  func tinyMatch() throws -> URL {
    let folder = try makeTemporaryFolder()
    try Data("""
      [cam01]
      size = [1920.0, 1080.0]
      matrix = [[1400.0, 0.0, 959.5], [0.0, 1400.0, 539.5], [0.0, 0.0, 1.0]]
      distortions = [0.0, 0.0, 0.0, 0.0]
      rotation = [0.0, 0.0, 0.0]
      translation = [0.0, 0.0, 5.0]
      """.utf8).write(to: try create(folder.appendingPathComponent("calibration/calibration.toml")))
    try Data("{\"version\":1.3,\"people\":[]}".utf8).write(
      to: try create(folder.appendingPathComponent("pose/cam01_json/cam01_000000000000_keypoints.json")))
    return folder
  }

  func create(_ file: URL) throws -> URL {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    return file
  }

  func testTOMLThatAbortedTheProcessIsAnErrorExit() throws {
    try requireTier(.integration)
    let folder = try tinyMatch()
    for text in ["[[[", "[[[a]]]", "[.a]", "[\n", "sport = \"x\"\n[[ #]]"] {
      try Data(text.utf8).write(to: folder.appendingPathComponent("match.toml"))
      let result = try runMatchScene(["reconstruct", folder.path, "-o", folder.appendingPathComponent("out").path])
      XCTAssertEqual(result.status, 1, "\(text): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("match.toml:") && result.stderr.contains("not valid TOML"), result.stderr)
    }
  }

  /// Seeded mutations of a match.toml (brackets, dots, quotes, line breaks inserted or deleted): the
  /// process always exits 0 or 1, never by a signal or an abort.
  func testMutatedMatchTOMLNeverCrashes() throws {
    try requireTier(.integration)
    let folder = try tinyMatch()
    let seed = "sport = \"table-tennis\"\nfps = 60\n[skeleton]\nname = \"s\"\nkeypoints = [\"a\", \"b\"]\nbones = [[\"a\", \"b\"]]\n[frame_offsets]\ncam01 = 0\n"
    var random = SeededGenerator(seed: 16)
    let pieces = ["[", "[[", "]", ".", "\"", "'", "\n", "#", "=", "{", "}", ",", "\"\"\"", " ", "\t", "é", "\\"]
    for _ in 0..<60 {
      var text = Array(seed.unicodeScalars)
      for _ in 0..<Int(random.uniform(1...4)) {
        let at = Int(random.uniform(0...Double(text.count - 1)))
        if random.uniform(0...1) < 0.3 {
          text.remove(at: at)
        } else {
          text.insert(contentsOf: pieces[Int(random.uniform(0...Double(pieces.count - 1)))].unicodeScalars, at: at)
        }
      }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: text)
      try Data(String(view).utf8).write(to: folder.appendingPathComponent("match.toml"))
      let result = try runMatchScene(["reconstruct", folder.path, "-o", folder.appendingPathComponent("out").path, "--no-analysis"])
      XCTAssertTrue([0, 1].contains(result.status), "exit \(result.status) on:\n\(String(view))\n\(result.stderr.prefix(300))")
    }
  }

  func testAnUnknownSportNamesTheSettingNotABuildPath() throws {
    try requireTier(.integration)
    let folder = try tinyMatch()
    let result = try runMatchScene(["reconstruct", folder.path, "-o", folder.appendingPathComponent("out").path, "--sport", "curling"])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("unknown sport 'curling'") && result.stderr.contains("table-tennis"), result.stderr)
    XCTAssertFalse(result.stderr.contains(".build") || result.stderr.contains("sports/curling.toml"), result.stderr)
  }

  /// Pose2Sim's demo layout: a Qualisys calibration whose serials are `cam_01`, pose folders
  /// `cam01_json/cam01.0000.json …` and a padding file `del_000000_0.json` repeating frame 0.
  func testADemoLayoutWithAQualisysCalibrationReads() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    try Data("""
      <?xml version='1.0' encoding='ASCII'?>
      <calibration><cameras>
        <camera active="1" model="none" serial="cam_01">
          <fov_video bottom="1079" left="0" right="1919" top="0"/>
          <transform x="0" y="-4000" z="1500" r11="1" r12="0" r13="0" r21="0" r22="0" r23="1" r31="0" r32="-1" r33="0"/>
          <intrinsic focalLengthU="89600" focalLengthV="89600" centerPointU="61408" centerPointV="34528"
                     radialDistortion1="0" radialDistortion2="0" tangentalDistortion1="0" tangentalDistortion2="0"/>
        </camera>
      </cameras></calibration>
      """.utf8).write(to: try create(folder.appendingPathComponent("calibration/Calib.qca.txt")))
    let pose = folder.appendingPathComponent("pose/cam01_json")
    for frame in 0..<3 {
      try Data("{\"version\":1.3,\"people\":[]}".utf8).write(to: try create(pose.appendingPathComponent("cam01.000\(frame).json")))
    }
    try Data("{\"version\":1.3,\"people\":[]}".utf8).write(to: pose.appendingPathComponent("del_000000_0.json"))
    let result = try runMatchScene(["reconstruct", folder.path, "-o", folder.appendingPathComponent("out").path, "--no-analysis"])
    XCTAssertTrue(result.stderr.contains("camera 'cam01' taken as the calibration's 'cam_01'"), result.stderr)
    XCTAssertTrue(result.stderr.contains("del_000000_0.json: holds no people and repeats frame 0"), result.stderr)
    XCTAssertFalse(result.stderr.contains("appears twice") || result.stderr.contains("is not in the calibration"), result.stderr)
  }

  func testTheDefaultSportIsANote() throws {
    try requireTier(.integration)
    let folder = try tinyMatch()
    let result = try runMatchScene(["reconstruct", folder.path, "-o", folder.appendingPathComponent("out").path, "--no-analysis"])
    XCTAssertTrue(result.stderr.contains("note:") && result.stderr.contains("no sport named"), result.stderr)
  }
}
