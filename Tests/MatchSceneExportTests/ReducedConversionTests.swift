import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// `--format fbx|dae` with keyframe reduction, as the command line writes them (`SceneExport.write`).
/// Reduced channel by channel, one node's channels keep different numbers of keys (the ball's
/// translation a few, its constant rotation and scale only the ends), and assimp 5.2's Collada exporter
/// then writes references to sources it never writes; with `sharedKeysPerNode` both formats re-import.
final class ReducedConversionTests: XCTestCase {
  func reducedDocument(clips: [(name: String, frames: ClosedRange<Int>)]) throws -> GLTFDocument {
    var options = SyntheticScene.assimpOptions
    options.clips = clips
    options.keyframeTolerance = 0.005
    options.sharedKeysPerNode = true
    return try SyntheticScene.document(options: options)
  }

  func testEveryChannelOfANodeKeepsTheSameKeys() throws {
    let doc = try reducedDocument(clips: [(name: "rally-01", frames: 25...45)])
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    for animation in doc.animations! {
      var inputs: [Int: Set<Int>] = [:]
      for c in animation.channels { inputs[c.target.node!, default: []].insert(animation.samplers[c.sampler].input) }
      XCTAssertTrue(inputs.values.allSatisfy { $0.count == 1 }, "\(animation.name!): one time accessor per node")
    }
    let match = doc.animations![0]
    let ball = try XCTUnwrap(match.channels.first { $0.target.node == doc.node("ball") })
    let keys = doc.accessors![match.samplers[ball.sampler].input].count
    XCTAssertGreaterThan(keys, 4, "more than the ends and the clip's")
    XCTAssertLessThan(keys, SyntheticScene.frameCount / 2)
  }

  /// The FBX keeps the clips; the Collada file only the match (assimp 5.2's Collada exporter writes
  /// every animation's sources under the same ids, so the last clip would overwrite the match).
  func testReducedSceneConvertsToFBXAndColladaWithTheKeysKept() throws {
    let folder = try makeTemporaryFolder("matchscene-reduced-conversion")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (format, ext, clips) in [
      ("fbxa", "fbx", [(name: "rally-01", frames: 25...45)]), ("collada", "dae", []),
    ] {
      let doc = try reducedDocument(clips: clips)
      let match = doc.animations![0]
      let ball = try XCTUnwrap(match.channels.first { $0.target.node == doc.node("ball") })
      let ballKeys = doc.accessors![match.samplers[ball.sampler].input].count
      let glb = folder.appendingPathComponent("scene-\(ext).glb")
      try GLTFWriter.write(doc, to: glb)
      let out = folder.appendingPathComponent("scene.\(ext)")
      try Assimp.convert(glb, to: out, format: format)
      let scene = try AssimpScene(contentsOf: out)
      let names = Set(scene.nodes.map(\.name))
      for name in ["ball", "P1", "P2", "nose", "right_wrist"] { XCTAssertTrue(names.contains(name), "\(format): \(name)") }
      XCTAssertEqual(scene.meshes.count, 10, format)
      XCTAssertEqual(scene.animations.count, 1 + clips.count, format)
      let anim = try XCTUnwrap(scene.animations.first, format)
      assertClose(try XCTUnwrap(anim.durationSeconds), 0.98, absolute: 1e-3, format)
      if let rally = scene.animations.dropFirst().first {
        assertClose(try XCTUnwrap(rally.durationSeconds), 0.4, absolute: 1e-3, "\(format) rally-01")
      }
      let keys = try XCTUnwrap(scene.positionKeys(animation: anim.name, node: "ball"), format)
      XCTAssertEqual(keys.count, ballKeys, "\(format): the ball keeps its reduced keys")
      for key in keys {
        let p = SyntheticScene.ball(t: key.time)
        // FBX moves the root's z-up → y-up turn into its children; Collada keeps it on the root.
        let expected = format == "fbxa" ? SIMD3(p.x, p.z, -p.y) : p
        assertClose(key.value, expected, absolute: 1e-5, "\(format): ball key at \(key.time) s")
      }
    }
  }
}
