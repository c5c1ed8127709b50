import Foundation
import MatchSceneCore
import XCTest

@testable import MatchSceneExport

final class SceneSizeTests: XCTestCase {
  /// 2 players and the ball over 600 frames (12 s at 50 fps): the GLB stays small and valid.
  func testSixHundredFrameSceneSize() throws {
    let rec = SyntheticScene.reconstruction(frames: 600)
    let started = Date()
    let doc = try SyntheticScene.document(rec)
    let glb = try GLTFWriter.glbData(doc)
    let seconds = Date().timeIntervalSince(started)
    print(
      "GLB for 2 players + ball, 600 frames: \(glb.count) bytes (\(String(format: "%.2f", Double(glb.count) / 1_048_576)) MiB), "
        + "JSON \(glb.count - doc.binary.count - 28) bytes, built in \(String(format: "%.2f", seconds)) s")
    XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
    // Per frame: 35 translations (12 B; a limb's translation is its first joint's, written once) + 32 limb
    // rotations (16 B) + 16 limb scales (12 B; the two synthetic players have the same bones, so each
    // scale is written once) + shared time and constants (32 B) ≈ 1.2 kB; meshes and JSON add a little.
    XCTAssertLessThan(glb.count, 900_000)
    XCTAssertGreaterThan(glb.count, 600 * (35 * 12 + 32 * 16 + 16 * 12))
  }
}
