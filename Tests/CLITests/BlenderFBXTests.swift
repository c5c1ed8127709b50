import Foundation
import TestSupport
import XCTest

/// `reconstruct --format fbx` on a whole match, opened in Blender (Debian's 3.4.1, headless) with
/// `Examples/blender/import_matchscene.py`, and what the run does when Blender cannot write the FBX.
final class BlenderFBXTests: XCTestCase {
  /// A fresh folder removed after the test.
  private func folder() -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("blender-fbx-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir
  }

  private func size(_ url: URL) throws -> Int {
    try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
  }

  /// A 60 s simulated match with a bystander (three armatures) as FBX: every armature imports, the
  /// cameras sit within 1 cm and 0.1° of the calibration, a right wrist of each person and the ball are
  /// within 1 mm of tracks.csv at three frames under the GLB's frame mapping (Blender frame k = match
  /// frame firstFrame + k), the frame range and rate are the match's, there is one take per rally clip
  /// and the match, static objects carry no keys, and the FBX is at most 1.5 times the GLB.
  func testFBXOfALongMatchWithABystanderOpensInBlender() throws {
    _ = try Blender.executable()
    let dir = folder()
    let match = dir.appendingPathComponent("match"), glbOut = dir.appendingPathComponent("glb"), out = dir.appendingPathComponent("fbx")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "60", "--seed", "2", "--bystander"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let glb = try runMatchScene(["reconstruct", match.path, "-o", glbOut.path])
    XCTAssertEqual(glb.status, 0, glb.stderr)
    let started = Date()
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--format", "fbx"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let fbx = out.appendingPathComponent("scene.fbx")
    let ratio = Double(try size(fbx)) / Double(try size(glbOut.appendingPathComponent("scene.glb")))
    print("FBX \(try size(fbx)) bytes, \(String(format: "%.2f", ratio))× the GLB; reconstruct --format fbx took \(String(format: "%.0f", Date().timeIntervalSince(started))) s")
    XCTAssertLessThanOrEqual(ratio, 1.5, "FBX size over GLB size")

    let json = out.appendingPathComponent("fbx.json")
    let example = Blender.packageRoot.appendingPathComponent("Examples/blender/import_matchscene.py").path
    let r = try Blender.run(
      script: "check_fbx.py", arguments: [example, fbx.path, out.appendingPathComponent("tracks.csv").path, json.path],
      json: json, timeout: 1200)
    XCTAssertEqual(r["armatures"] as? [String], ["B1", "P1", "P2"])
    for (name, count) in try XCTUnwrap(r["boneCounts"] as? [String: Int]) { XCTAssertGreaterThan(count, 0, name) }
    XCTAssertEqual(try XCTUnwrap(r["fps"] as? Double), 60, accuracy: 1e-9)
    XCTAssertEqual(r["frameStart"] as? Int, 0)
    let first = try XCTUnwrap(r["firstFrame"] as? Int), last = try XCTUnwrap(r["lastFrame"] as? Int)
    XCTAssertEqual(r["frameEnd"] as? Int, last - first, "the match's frame range")
    let events = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("events.json")))
    let list = try XCTUnwrap((events as? [String: Any])?["events"] as? [[String: Any]])
    let rallies = Set(list.filter { $0["type"] as? String == "rally_end" }.compactMap { $0["rally"] as? Int })
    XCTAssertFalse(rallies.isEmpty)
    XCTAssertEqual(r["takes"] as? [String], ["match"] + rallies.sorted().map { String(format: "rally-%02d", $0) }, "one take per rally")
    XCTAssertEqual(r["staticKeyed"] as? [String], [], "cameras, venue and light carry no keys")
    let wrists = try XCTUnwrap(r["wristErrors"] as? [[Any]])
    XCTAssertEqual(wrists.count, 9, "three frames for each of three people")
    for e in wrists { XCTAssertLessThan(e.last as? Double ?? .infinity, 1e-3, "wrist \(e), metres from tracks.csv") }
    let balls = try XCTUnwrap(r["ballErrors"] as? [[Any]])
    XCTAssertEqual(balls.count, 3)
    for e in balls { XCTAssertLessThan(e.last as? Double ?? .infinity, 1e-3, "ball \(e), metres from tracks.csv") }

    let camerasJSON = out.appendingPathComponent("cameras.json")
    let cameras = try Blender.run(
      script: "check_cameras.py",
      arguments: [fbx.path, match.appendingPathComponent("calibration/calibration.toml").path, camerasJSON.path],
      json: camerasJSON, timeout: 1200)
    let byName = try XCTUnwrap(cameras["cameras"] as? [String: Any])
    XCTAssertEqual(byName.count, 4)
    for (name, value) in byName {
      let c = try XCTUnwrap(value as? [String: Any], name)
      XCTAssertLessThan(try XCTUnwrap(c["centerError"] as? Double), 0.01, "\(name) centre, m")
      XCTAssertLessThan(try XCTUnwrap(c["angleError"] as? Double), 0.1, "\(name) rotation, degrees")
    }
  }

  /// `--format fbx` where Blender's Python has no NumPy (a Blender whose `numpy` fails to import, through
  /// `MATCHSCENE_BLENDER`): the run says before the reconstruction what to install, writes every other
  /// output, and fails.
  func testFormatFBXWithoutNumPyKeepsEveryOtherOutputAndSaysWhatToInstall() throws {
    let blender = try Blender.executable()
    let dir = folder()
    let hidden = dir.appendingPathComponent("no-numpy/numpy")
    try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
    try "raise ImportError(\"No module named 'numpy'\")\n".write(
      to: hidden.appendingPathComponent("__init__.py"), atomically: true, encoding: .utf8)
    let wrapper = dir.appendingPathComponent("blender-without-numpy")
    try "#!/bin/sh\nPYTHONPATH=\(hidden.deletingLastPathComponent().path) exec \(blender) \"$@\"\n".write(
      to: wrapper, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
    setenv("MATCHSCENE_BLENDER", wrapper.path, 1)
    defer { unsetenv("MATCHSCENE_BLENDER") }

    let match = dir.appendingPathComponent("match"), out = dir.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "3"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--format", "fbx"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("apt-get install python3-numpy"), run.stderr)
    let warning = try XCTUnwrap(run.stderr.range(of: "warning:"), run.stderr)
    XCTAssertTrue(run.stderr[..<warning.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "said first: \(run.stderr)")
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
    for name in ["tracks.csv", "events.json", "score.json", "report.json", "match.json", "match.c3d", "views.csv", "trc"] {
      XCTAssertTrue(files.contains(name), "\(name) kept: \(files.sorted())")
    }
    XCTAssertFalse(files.contains("scene.fbx"))
  }
}
