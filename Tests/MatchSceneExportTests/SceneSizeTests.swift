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
    // Per frame: 67 translations (12 B) + 32 limb rotations (16 B) + 32 scales (12 B) + shared time and
    // constants (32 B) ≈ 1.7 kB; the meshes and JSON add a little.
    XCTAssertLessThan(glb.count, 1_300_000)
    XCTAssertGreaterThan(glb.count, 600 * (67 * 12 + 32 * 28))
  }
}
