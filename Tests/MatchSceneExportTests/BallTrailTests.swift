import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// `SceneOptions.ballTrail`: fading spheres following the ball a fixed time behind it.
final class BallTrailTests: XCTestCase {
  func trailOptions(_ seconds: Double) -> SceneOptions {
    var options = SceneOptions()
    options.ballTrail = seconds
    return options
  }

  func testNoTrailByDefault() throws {
    let doc = try SyntheticScene.document()
    XCTAssertFalse(doc.nodes!.contains { $0.name?.hasPrefix("ball/") == true })
  }

  func testTrailSpheresFollowTheBallLateAndHideWithoutData() throws {
    let first = SyntheticScene.firstFrame
    // The ball is unseen at frames 30–34 of the clip.
    let rec = SyntheticScene.motion(skip: { track, frame in track == "ball" && (30...34).contains(frame - first) })
    // 0.1 s at 50 fps and 5 spheres: sphere k is k frames late.
    let doc = try SyntheticScene.document(rec, options: trailOptions(0.1))
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    let nodes = doc.nodes!
    let root = try XCTUnwrap(doc.node("matchscene"))
    let ball = try XCTUnwrap(doc.node("ball"))
    XCTAssertTrue(nodes[root].children!.contains(ball), "the ball stays where it was")
    for k in 1...5 {
      let node = try XCTUnwrap(doc.node("ball/trail-\(k)"))
      XCTAssertTrue(nodes[root].children!.contains(node))
      let mesh = doc.meshes![nodes[node].mesh!]
      let material = doc.materials![mesh.primitives[0].material!]
      XCTAssertEqual(material.alphaMode, "BLEND")
      let fade = 1 - Double(k) / 6
      assertClose(Double(material.pbrMetallicRoughness!.baseColorFactor![3]), fade, absolute: 1e-6, "fades")

      let t = doc.vec3s(doc.output(animation: 0, node: node, path: "translation")!)
      let s = doc.vec3s(doc.output(animation: 0, node: node, path: "scale")!)
      XCTAssertEqual(t.count, SyntheticScene.frameCount)
      for f in 0..<SyntheticScene.frameCount {
        let late = f - k
        let seen = late >= 0 && !(30...34).contains(late)
        let expected: Double = seen ? Double(Float(fade)) : Double(MatchSceneGLTF.hiddenScale)
        XCTAssertEqual(s[f].x, expected, "sphere \(k) frame \(f)")
        if seen { assertClose(t[f], SyntheticScene.ball(t: Double(late) / 50), absolute: 1e-6, "sphere \(k) frame \(f)") }
      }
      let scaleSampler = doc.animations![0].channels.first { $0.target.node == node && $0.target.path == "scale" }!
      XCTAssertEqual(doc.animations![0].samplers[scaleSampler.sampler].interpolation, "STEP")
    }
  }

  func testTrailReimportsAndRejectsBadOptions() throws {
    let folder = try makeTemporaryFolder("matchscene-trail")
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = trailOptions(0.2)
    options.ballTrailSpheres = 3
    options.clips = [(name: "rally-01", frames: 20...40)]
    let url = folder.appendingPathComponent("scene.glb")
    try GLTFWriter.write(try SyntheticScene.document(options: options), to: url)
    let scene = try AssimpScene(contentsOf: url)
    let names = Set(scene.nodes.map(\.name))
    for name in ["ball", "ball/trail-1", "ball/trail-2", "ball/trail-3"] { XCTAssertTrue(names.contains(name), name) }
    XCTAssertFalse(names.contains("ball/trail-4"))
    for animation in scene.animations {
      XCTAssertTrue(animation.channels.contains { $0.nodeName == "ball/trail-3" }, animation.name)
    }
    XCTAssertThrowsError(try SyntheticScene.document(options: trailOptions(-1)))
    // 1e300 s trapped converting its delay to frames: now a range error.
    XCTAssertThrowsError(try SyntheticScene.document(options: trailOptions(1e300))) {
      XCTAssertTrue("\($0)".contains("0…60 s"), "\($0)")
    }
    XCTAssertNoThrow(try SyntheticScene.document(options: trailOptions(SceneOptions.maxBallTrail)))
    var none = SceneOptions()
    none.ballTrailSpheres = 0
    none.ballTrail = 1
    XCTAssertThrowsError(try SyntheticScene.document(options: none))
  }
}
