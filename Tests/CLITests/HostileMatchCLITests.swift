import Foundation
import TestSupport
import XCTest

/// Hostile inputs, end to end: each one, given to `matchscene reconstruct` on a
/// copy of a small simulated match, exits non-zero (not by a signal), names the file or flag and the
/// accepted range, and leaves neither an output folder nor a temporary file.
final class HostileMatchCLITests: XCTestCase {
  struct Case: Sendable {
    var name: String
    var arguments: [String] = []
    /// Changes the copied match folder.
    var setup: @Sendable (URL) throws -> Void = { _ in }
    /// Every one must appear in standard error.
    var expected: [String]
  }

  /// Replaces the first occurrence of `old` in `file` below `match`.
  static func edit(_ match: URL, _ file: String, _ old: String, _ new: String) throws {
    let url = match.appendingPathComponent(file)
    let text = try String(contentsOf: url, encoding: .utf8)
    guard let range = text.range(of: old) else { throw XCTSkip("\(file) has no '\(old)'") }
    try text.replacingCharacters(in: range, with: new).write(to: url, atomically: true, encoding: .utf8)
  }

  /// The value of `key = …` of camera `camera` in the simulated calibration.toml.
  static func calibrationLine(_ match: URL, camera: String, key: String) throws -> String {
    let text = try String(contentsOf: match.appendingPathComponent("calibration/calibration.toml"), encoding: .utf8)
    let block = text.components(separatedBy: "[\(camera)]")[1]
    return String(block.split(separator: "\n").first { $0.hasPrefix(key + " = ") }!)
  }

  static let cases: [Case] = [
    Case(name: "match.toml holding [[[", setup: { try "[[[\n".append(to: $0.appendingPathComponent("match.toml")) },
         expected: ["match.toml:", "not valid TOML"]),
    Case(name: "calibration holding [[[",
         setup: { try "[[[\n".append(to: $0.appendingPathComponent("calibration/calibration.toml")) },
         expected: ["calibration.toml:", "not valid TOML"]),
    Case(name: "frame offset Int64.max", setup: { try edit($0, "match.toml", "cam2 = 0", "cam2 = 9223372036854775807") },
         expected: ["match.toml: [frame_offsets.cam2]: a frame offset must be within ±10000000 frames"]),
    Case(name: "frame offset Int64.min", setup: { try edit($0, "match.toml", "cam2 = 0", "cam2 = -9223372036854775808") },
         expected: ["match.toml: [frame_offsets.cam2]: a frame offset must be within ±10000000 frames"]),
    Case(name: "frame ranges that do not overlap",
         setup: {
           try edit($0, "match.toml", "cam2 = 0", "cam2 = 10000000")
           try edit($0, "match.toml", "cam3 = 0", "cam3 = -10000000")
         },
         expected: ["the cameras' frames do not overlap", "cam2 -10000000"]),
    Case(name: "a file for frame 10^12",
         setup: {
           let folder = $0.appendingPathComponent("pose/cam1_json")
           try FileManager.default.copyItem(
             at: folder.appendingPathComponent("cam1_000000000000_keypoints.json"),
             to: folder.appendingPathComponent("cam1_1000000000000_keypoints.json"))
         },
         expected: ["cam1_1000000000000_keypoints.json: the frame number in the file name is 1000000000000, outside the accepted"]),
    Case(name: "fps = 1e300", setup: { try edit($0, "match.toml", "fps = 60.0", "fps = 1e300") },
         expected: ["match.toml: [fps]: must be within 1–10000 frames per second, got 1e+300"]),
    Case(name: "fps = 1e-300", setup: { try edit($0, "match.toml", "fps = 60.0", "fps = 1e-300") },
         expected: ["match.toml: [fps]: must be within 1–10000 frames per second, got 1e-300"]),
    Case(name: "--fps 1e-5", arguments: ["--fps", "1e-5"], expected: ["fps option", "between 1 and 10000", "1e-05"]),
    Case(name: "--fps inf", arguments: ["--fps", "inf"], expected: ["--fps must be a positive number, got inf"]),
    Case(name: "--max-gap inf", arguments: ["--max-gap", "inf"], expected: ["--max-gap must be between 0 and 60 seconds"]),
    Case(name: "--ball-trail 1e300", arguments: ["--ball-trail", "1e300"], expected: ["--ball-trail must lie in 0…60 seconds"]),
    Case(name: "--cutoff 1e-300", arguments: ["--cutoff", "1e-300"], expected: ["--cutoff must be at least 0.01 Hz, got 1e-300"]),
    Case(name: "--frames outside the data", arguments: ["--frames", "5000-6000"],
         expected: ["frames option: 5000–6000 holds no detections; the cameras cover match frames 0–239"]),
    Case(name: "intri.yml nested 50,000 deep", arguments: ["--calibration", "cal/intri.yml"],
         setup: {
           let cal = $0.deletingLastPathComponent().appendingPathComponent("cal")
           try FileManager.default.createDirectory(at: cal, withIntermediateDirectories: true)
           try ("%YAML:1.0\n---\nnames: " + String(repeating: "[", count: 50_000) + "\n")
             .write(to: cal.appendingPathComponent("intri.yml"), atomically: true, encoding: .utf8)
           try "%YAML:1.0\n---\nnames: []\n".write(to: cal.appendingPathComponent("extri.yml"), atomically: true, encoding: .utf8)
         },
         expected: ["intri.yml:3: brackets nested more than 64 deep"]),
    Case(name: "translation 1e308",
         setup: {
           let line = try calibrationLine($0, camera: "cam1", key: "translation")
           try edit($0, "calibration/calibration.toml", line, "translation = [ 1e308, 0.0, 6.0,]")
         },
         expected: ["calibration.toml: [cam1.translation]: extrinsics out of range: translation x = 1e+308 m"]),
    Case(name: "Rodrigues 1e300",
         setup: {
           let line = try calibrationLine($0, camera: "cam1", key: "rotation")
           try edit($0, "calibration/calibration.toml", line, "rotation = [ 1e300, 0.0, 0.0,]")
         },
         expected: ["calibration.toml: [cam1.rotation]: extrinsics out of range: Rodrigues vector"]),
    Case(name: "fx = 5e-324",
         setup: { try edit($0, "calibration/calibration.toml", "matrix = [ [ 1400.0", "matrix = [ [ 5e-324") },
         expected: ["calibration.toml: [cam1.matrix]: intrinsics out of range: focal length fx = 5e-324 px"]),
    Case(name: "one camera",
         setup: { match in
           for camera in ["cam2", "cam3", "cam4"] {
             try FileManager.default.removeItem(at: match.appendingPathComponent("pose/\(camera)_json"))
             try FileManager.default.removeItem(at: match.appendingPathComponent("ball/\(camera).csv"))
           }
         },
         expected: ["only one camera (cam1) has detections"]),
    Case(name: "two coincident cameras",
         setup: { match in
           for key in ["rotation", "translation"] {
             let line = try calibrationLine(match, camera: "cam1", key: key)
             try edit(match, "calibration/calibration.toml", try calibrationLine(match, camera: "cam2", key: key), line)
           }
           for camera in ["cam3", "cam4"] {
             try FileManager.default.removeItem(at: match.appendingPathComponent("pose/\(camera)_json"))
             try FileManager.default.removeItem(at: match.appendingPathComponent("ball/\(camera).csv"))
           }
         },
         expected: ["every camera with detections stands at one place: cam1, cam2"]),
    Case(name: "every keypoint at 1e308",
         setup: { match in
           let folder = match.appendingPathComponent("pose/cam1_json")
           let file = folder.appendingPathComponent("cam1_000000000000_keypoints.json")
           let keypoints = Array(repeating: "1e308, 1e308, 0.9", count: 17).joined(separator: ", ")
           try "{\"version\": 1.3, \"people\": [{\"pose_keypoints_2d\": [\(keypoints)]}]}"
             .write(to: file, atomically: true, encoding: .utf8)
         },
         expected: ["cam1_000000000000_keypoints.json: [people[0].pose_keypoints_2d[0]]", "outside the accepted ±1000000 px"]),
    Case(name: "a COCO category_id too big for Int",
         setup: { match in
           try FileManager.default.removeItem(at: match.appendingPathComponent("pose/cam1_json"))
           let keypoints = Array(repeating: "1", count: 51).joined(separator: ",")
           try "[{\"image_id\": 0, \"category_id\": 1e30, \"keypoints\": [\(keypoints)]}]"
             .write(to: match.appendingPathComponent("pose/cam1.json"), atomically: true, encoding: .utf8)
         },
         expected: ["cam1.json: [[0].category_id]: expected a whole number within 0…2147483647"]),
    Case(name: "a pose folder whose name is not UTF-8",
         setup: { match in
           var bytes = Array(match.appendingPathComponent("pose").path.utf8) + Array("/cam".utf8) + [0xFF] + Array("_json".utf8)
           bytes.append(0)
           let made = bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
           XCTAssertEqual(made, 0)
         },
         expected: ["a name that is not valid UTF-8", "rename it"]),
    Case(name: "-o inside a file", arguments: ["-o", "file/out", "--no-analysis", "--no-scene"],
         setup: { try "x".write(to: $0.deletingLastPathComponent().appendingPathComponent("file"), atomically: true, encoding: .utf8) },
         expected: ["/file: is a file, not a folder"]),
    Case(name: "-o where no folder can be made", arguments: ["-o", "/proc/matchscene-out", "--no-analysis", "--no-scene"],
         expected: ["/proc: cannot write the output folder here", "No such file or directory"]),
  ]

  func testEveryIssueCaseFailsClearlyAndLeavesNothing() throws {
    try requireTier(.integration)
    let work = try makeTemporaryFolder()
    for (index, item) in Self.cases.enumerated() {
      let folder = work.appendingPathComponent("\(index)-" + item.name.filter { $0.isLetter || $0.isNumber })
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let match = folder.appendingPathComponent("match")
      try FileManager.default.copyItem(at: OutputFolderTests.match, to: match)
      try item.setup(match)
      let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
      var arguments = ["reconstruct", "match"] + item.arguments
      if !arguments.contains("-o") { arguments += ["-o", "out"] }
      let run = try runMatchScene(arguments, in: folder)
      XCTAssertTrue(run.status == 1 || run.status == 64, "\(item.name): exit \(run.status), \(run.stderr.suffix(400))")
      for text in item.expected {
        XCTAssertTrue(run.stderr.contains(text), "\(item.name): no '\(text)' in \(run.stderr.suffix(600))")
      }
      XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), before, "\(item.name): nothing written")
      let temporary = try FileManager.default.subpathsOfDirectory(atPath: match.path).filter { $0.hasSuffix(".tmp") || $0.contains(".partial-") }
      XCTAssertEqual(temporary, [], item.name)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/matchscene-out"))
  }
}

private extension String {
  func append(to url: URL) throws {
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(utf8))
  }
}
