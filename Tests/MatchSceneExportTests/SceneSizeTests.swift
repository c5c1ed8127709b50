import Foundation
import MatchSceneCore
import XCTest

@testable import MatchSceneExport

final class SceneSizeTests: XCTestCase {
  /// 2 players and the ball over 600 frames (12 s at 50 fps): the GLB stays small and valid, and
  /// normalised SHORT rotations take exactly half the bytes of Float32 ones.
  func testSixHundredFrameSceneSize() throws {
    let rec = SyntheticScene.motion(frames: 600)
    let started = Date()
    let doc = try SyntheticScene.document(rec)
    let glb = try GLTFWriter.glbData(doc)
    let seconds = Date().timeIntervalSince(started)
    print(
      "GLB for 2 players + ball, 600 frames: \(glb.count) bytes (\(String(format: "%.2f", Double(glb.count) / 1_048_576)) MiB), "
        + "JSON \(glb.count - doc.binary.count - 28) bytes, built in \(String(format: "%.2f", seconds)) s")
    XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
    // Per frame, written once each: 35 translations (12 B; a limb's translation is its first joint's),
    // 27 limb rotations (16 B; P2's shoulder line and shoulder-to-hip limbs mirror P1's onto the same
    // rotations), 11 limb lengths (12 B; left and right bones are equally long) and, shared by every
    // node, the time, an identity rotation, a zero translation and a unit scale ≈ 1 kB a frame.
    XCTAssertLessThan(glb.count, 900_000)
    XCTAssertGreaterThan(doc.binary.count, 600 * (35 * 12 + 27 * 16 + 11 * 12))

    var options = SceneOptions()
    options.rotationEncoding = .normalizedShort
    let short = try SyntheticScene.document(rec, options: options)
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(short)), [])
    XCTAssertEqual(doc.binary.count - short.binary.count, 600 * 28 * 8, "27 limb rotations and the identity: 8 B a frame less each")
  }
}
