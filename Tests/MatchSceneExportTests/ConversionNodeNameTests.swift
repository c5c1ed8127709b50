import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// Conversions through assimp bind animations by node name; repeated keypoint names must not make the
/// second player's joints stand still.
final class ConversionNodeNameTests: XCTestCase {
  func testRepeatedNamesAreQualifiedByTheirParentAndOthersKept() throws {
    let original = try SyntheticScene.document()
    let names = try XCTUnwrap(original.qualifyingRepeatedNodeNames().nodes).map { $0.name ?? "" }
    XCTAssertEqual(names.count, original.nodes?.count, "no node added or lost")
    XCTAssertEqual(Set(names).count, names.count, "every name unique")
    for keypoint in Skeleton.coco17.keypoints {
      XCTAssertTrue(names.contains("P1/\(keypoint)"), keypoint)
      XCTAssertTrue(names.contains("P2/\(keypoint)"), keypoint)
      XCTAssertFalse(names.contains(keypoint), keypoint)
    }
    for kept in ["matchscene", "ball", "venue", "P1", "P2", "P1/left_elbow-left_wrist", "cam_left"] {
      XCTAssertTrue(names.contains(kept), kept)
    }
  }

  func testEachPlayersWristKeepsItsOwnAnimationInFBXAndCollada() throws {
    let folder = try makeTemporaryFolder("matchscene-names")
    defer { try? FileManager.default.removeItem(at: folder) }
    let glb = folder.appendingPathComponent("scene.glb")
    try GLTFWriter.writeGLB(
      try SyntheticScene.document(options: SyntheticScene.assimpOptions).qualifyingRepeatedNodeNames(), to: glb)
    for (format, ext) in [("fbxa", "fbx"), ("collada", "dae")] {
      let out = folder.appendingPathComponent("converted.\(ext)")
      try Assimp.convert(glb, to: out, format: format)
      let scene = try AssimpScene(contentsOf: out)
      let animation = try XCTUnwrap(scene.animations.first, format)
      let targets = animation.channels.map(\.nodeName)
      XCTAssertEqual(Set(targets).count, targets.count, "\(format): one channel per node")
      // assimp's Collada exporter escapes `/` in node ids as `l` and its importer names nodes by id
      // (the files' `name` attributes keep `P1/right_wrist`).
      func node(_ name: String) -> String { format == "collada" ? name.replacingOccurrences(of: "/", with: "l") : name }
      let p1 = try XCTUnwrap(scene.positionKeys(animation: animation.name, node: node("P1/right_wrist")), format)
      let p2 = try XCTUnwrap(scene.positionKeys(animation: animation.name, node: node("P2/right_wrist")), format)
      XCTAssertEqual(p1.count, SyntheticScene.frameCount, format)
      XCTAssertEqual(p2.count, SyntheticScene.frameCount, format)
      // Local (player-relative) keys of the two players' wrists follow their own motions.
      for k in [0, SyntheticScene.frameCount / 2, SyntheticScene.frameCount - 1] {
        let t = Double(k) / SyntheticScene.fps
        let expected1 = SyntheticScene.playerJoint(0, "right_wrist", t: t)
        let expected2 = SyntheticScene.playerJoint(1, "right_wrist", t: t)
        XCTAssertGreaterThan(length(expected1 - expected2), 0.01, "the synthetic players differ")
        XCTAssertGreaterThan(length(p1[k].value - p2[k].value), 0.01, "\(format) key \(k): P2's wrist has its own keys")
      }
    }
  }
}
