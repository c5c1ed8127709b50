import Foundation
import TestSupport
import XCTest
import MatchSceneAssimp

/// The scenes `matchscene reconstruct` writes, opened in Blender (Debian's 3.4.1, headless) the way a
/// user opens them: `Examples/blender/import_matchscene.py`, which calls Blender's own glTF importer.
/// A 4 s simulated match keeps each test to seconds.
final class BlenderTests: XCTestCase {
  /// simulate → reconstruct into a fresh folder; returns the output folder.
  private func reconstruct(_ extra: [String] = []) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("blender-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    let match = dir.appendingPathComponent("match"), out = dir.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "3"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path] + extra)
    XCTAssertEqual(run.status, 0, run.stderr)
    return out
  }

  /// One armature per player with the keypoint names as bones, no `.001` names, the capture rate, one
  /// action per player and clip; at every frame a joint, limb or the ball is drawn exactly where
  /// tracks.csv has a row (scale 0 elsewhere), the ball and the right wrists within 1 mm of tracks.csv
  /// (bones at every frame, the skinned body's wrist sphere at three);
  /// a Cycles render through a camera, lit by the scene's sun, is not black.
  func testGLBOpensInBlenderWithOneArmaturePerPlayer() throws {
    _ = try Blender.executable()
    let out = try reconstruct()
    let json = out.appendingPathComponent("blender.json")
    let r = try Blender.run(
      script: "check_glb.py",
      arguments: [
        Blender.packageRoot.appendingPathComponent("Examples/blender/import_matchscene.py").path,
        out.appendingPathComponent("scene.glb").path, out.appendingPathComponent("tracks.csv").path, json.path,
        out.appendingPathComponent("render.png").path,
      ], json: json)
    let people = try XCTUnwrap(r["people"] as? [String])
    XCTAssertEqual(r["armatures"] as? [String], people, "one armature per person, named by track")
    XCTAssertGreaterThanOrEqual(people.count, 2)
    XCTAssertEqual(r["duplicates"] as? [String], [], "no .001 names")
    XCTAssertEqual(try XCTUnwrap(r["fps"] as? Double), 60, accuracy: 1e-9, "the simulator's capture rate")
    let actions = try XCTUnwrap(r["actions"] as? [String])
    XCTAssertTrue(people.allSatisfy { actions.contains("match_\($0)") }, "\(actions)")
    XCTAssertFalse(actions.contains { $0.contains("left_wrist") }, "no action per keypoint: \(actions)")
    XCTAssertTrue((r["lights"] as? [String])?.contains("sun") ?? false)
    XCTAssertEqual((r["cameras"] as? [String])?.count, 4)

    XCTAssertGreaterThan(try XCTUnwrap(r["checked"] as? Int), 10_000)
    XCTAssertEqual(r["wrongVisibilityCount"] as? Int, 0, "\(r["wrongVisibility"] ?? "")")
    for key in ["ballErrors", "wristErrors"] {
      let errors = try XCTUnwrap(r[key] as? [[Any]]).compactMap { $0.last as? Double }
      XCTAssertGreaterThanOrEqual(errors.count, 3, key)
      XCTAssertLessThan(errors.max() ?? .infinity, 1e-3, "\(key): metres from tracks.csv")
    }
    // The skinned body (Blender's Armature modifier) carries each right-wrist sphere to tracks.csv.
    let body = try XCTUnwrap(r["bodyWristErrors"] as? [[Any]])
    XCTAssertEqual(body.count, 3 * people.count, "\(body)")
    for e in body { XCTAssertLessThan(e.last as? Double ?? .infinity, 1e-3, "body wrist \(e)") }
    XCTAssertGreaterThan(try XCTUnwrap(r["renderMean"] as? Double), 0.02, "the render is not black")
    XCTAssertGreaterThan(try XCTUnwrap(r["renderLitFraction"] as? Double), 0.2)
  }

  /// Blender's cameras after importing `scene` (through `Tests/Blender/check_cameras.py`), against the
  /// calibration: each within 1 cm and 0.1° of its pose, its fields of view within 0.1°.
  private func assertCameras(_ r: [String: Any], count: Int, _ label: String) throws {
    let cameras = try XCTUnwrap(r["cameras"] as? [String: Any], label)
    XCTAssertEqual(cameras.count, count, label)
    for (name, value) in cameras {
      let c = try XCTUnwrap(value as? [String: Any], "\(label) \(name) missing")
      XCTAssertLessThan(try XCTUnwrap(c["centerError"] as? Double), 0.01, "\(label) \(name) centre, m")
      XCTAssertLessThan(try XCTUnwrap(c["angleError"] as? Double), 0.1, "\(label) \(name) rotation, degrees")
      for fov in ["xfov", "yfov"] {
        XCTAssertEqual(
          try XCTUnwrap(c[fov] as? Double), try XCTUnwrap(c[fov + "True"] as? Double), accuracy: 0.1, "\(label) \(name) \(fov)")
      }
    }
  }

  private var calibration: (URL) -> URL { { $0.deletingLastPathComponent().appendingPathComponent("match/calibration/calibration.toml") } }

  /// The GLB's cameras, and the binary FBX the example script writes from it (Blender's exporter), open
  /// in Blender at the calibrated poses and fields of view, in metres (unit scale 1), at the capture rate.
  func testGLBAndTheScriptsFBXPutTheCamerasWhereTheCalibrationDoes() throws {
    _ = try Blender.executable()
    let out = try reconstruct()
    let example = Blender.packageRoot.appendingPathComponent("Examples/blender/import_matchscene.py").path
    let glb = out.appendingPathComponent("scene.glb").path
    let json = out.appendingPathComponent("cameras.json")
    let viaGLB = try Blender.run(
      script: "check_cameras.py", arguments: [glb, calibration(out).path, json.path, example], json: json)
    try assertCameras(viaGLB, count: 4, "glb")
    // The calibration beyond the field of view (the camera nodes' extras): the scene camera's image size
    // as the render resolution, a horizontal sensor fit and the principal point as the lens shift.
    let cameras = try XCTUnwrap(viaGLB["cameras"] as? [String: [String: Any]])
    let sceneCamera = try XCTUnwrap(cameras[try XCTUnwrap(viaGLB["sceneCamera"] as? String)])
    XCTAssertEqual(viaGLB["resolution"] as? [Int], (sceneCamera["size"] as? [Double])?.map { Int($0) }, "render size")
    for (name, c) in cameras {
      XCTAssertEqual(c["sensorFit"] as? String, "HORIZONTAL", name)
      let shift = try XCTUnwrap(c["shift"] as? [Double]), expected = try XCTUnwrap(c["shiftTrue"] as? [Double])
      for k in 0..<2 { XCTAssertEqual(shift[k], expected[k], accuracy: 1e-6, "\(name) lens shift") }
    }
    let fbx = out.appendingPathComponent("scene-blender.fbx")
    let viaFBX = try Blender.run(
      script: "check_cameras.py", arguments: [glb, calibration(out).path, json.path, example, fbx.path], json: json)
    try assertCameras(viaFBX, count: 4, "fbx")
    XCTAssertEqual(try XCTUnwrap(viaFBX["unitScale"] as? Double), 1, accuracy: 1e-9, "metres")
    XCTAssertEqual(try XCTUnwrap(viaFBX["fps"] as? Double), 60, accuracy: 1e-9, "the capture rate")
    let head = try FileHandle(forReadingFrom: fbx).readData(ofLength: 20)
    XCTAssertEqual(String(decoding: head.prefix(18), as: UTF8.self), "Kaydara FBX Binary", "binary FBX")
  }

  /// `reconstruct --format fbx`: a binary FBX (Blender's exporter, run by matchscene) that Blender imports
  /// with the cameras at the calibration, in metres, at the capture rate; the script it runs is the example.
  func testFormatFBXIsABinaryFBXWithTheCamerasAtTheCalibration() throws {
    _ = try Blender.executable()
    let example = Blender.packageRoot.appendingPathComponent("Examples/blender/import_matchscene.py")
    XCTAssertEqual(
      try String(contentsOf: XCTUnwrap(BlenderFBX.scriptURL), encoding: .utf8), try String(contentsOf: example, encoding: .utf8),
      "the script BlenderFBX runs is the example script")
    let out = try reconstruct(["--format", "fbx"])
    let fbx = out.appendingPathComponent("scene.fbx")
    let head = try FileHandle(forReadingFrom: fbx).readData(ofLength: 18)
    XCTAssertEqual(String(decoding: head, as: UTF8.self), "Kaydara FBX Binary")
    let json = out.appendingPathComponent("cameras-fbx.json")
    let cameras = try Blender.run(script: "check_cameras.py", arguments: [fbx.path, calibration(out).path, json.path], json: json)
    try assertCameras(cameras, count: 4, "reconstruct --format fbx")
    XCTAssertEqual(try XCTUnwrap(cameras["unitScale"] as? Double), 1, accuracy: 1e-9, "metres")
    XCTAssertEqual(try XCTUnwrap(cameras["fps"] as? Double), 60, accuracy: 1e-9, "the capture rate")
  }

  /// `--format dae`: the cameras sit at their calibrated poses with the calibrated field of view in
  /// Blender's Collada importer (assimp 5.2 put them ~6 m off and 6° too wide).
  func testDAECamerasSitAtTheCalibration() throws {
    _ = try Blender.executable()
    let out = try reconstruct(["--format", "dae"])
    let json = out.appendingPathComponent("cameras.json")
    let r = try Blender.run(
      script: "check_cameras.py",
      arguments: [out.appendingPathComponent("scene.dae").path, calibration(out).path, json.path], json: json)
    try assertCameras(r, count: 4, "dae")
  }
}
