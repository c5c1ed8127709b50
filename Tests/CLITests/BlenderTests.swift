import Foundation
import TestSupport
import XCTest

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
  /// tracks.csv has a row (scale 0 elsewhere), the ball and the right wrists within 1 mm of tracks.csv;
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
    XCTAssertGreaterThan(try XCTUnwrap(r["renderMean"] as? Double), 0.02, "the render is not black")
    XCTAssertGreaterThan(try XCTUnwrap(r["renderLitFraction"] as? Double), 0.2)
  }
}
