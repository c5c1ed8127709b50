import Foundation
import MatchSceneExport
import XCTest

@testable import MatchSceneReview

/// The review app's scene split into a static GLB and packed millimetre motion: positions within 0.5 mm of the
/// scene's animation, gaps kept, rally clips kept, the GLB without animation and much smaller.
final class ReviewSceneSplitTests: XCTestCase {
  func testSplitKeepsEveryPositionGapAndClip() throws {
    var options = SceneOptions(clips: [(name: "rally-01", frames: 20...40)])
    options.sceneExtras["players"] = .object(["P1": .string("Ana")])
    let document = try SyntheticScene.document(
      SyntheticScene.motion(skip: { track, frame in track == "ball" && frame == 30 }), options: options)
    let glb = try GLTFWriter.glbData(document)
    let (scene, motion) = try ReviewSceneSplit.split(glb: glb)

    XCTAssertEqual(motion.fps, SyntheticScene.fps)
    XCTAssertEqual(motion.firstFrame, SyntheticScene.firstFrame)
    XCTAssertEqual(motion.frames, SyntheticScene.frameCount)
    XCTAssertEqual(motion.clips.map(\.name), ["rally-01"])
    XCTAssertEqual(motion.clips.first?.firstFrame, 20)
    XCTAssertEqual(motion.clips.first?.lastFrame, 40)
    let n = motion.points.count
    let ball = try XCTUnwrap(motion.points.firstIndex { $0.track == "ball" && $0.key.isEmpty })
    let nose = try XCTUnwrap(motion.points.firstIndex { $0.track == "P1" && $0.key == "nose" })
    let chunks = zip(motion.positionChunks, motion.visibleChunks).map { (Data(base64Encoded: $0)!, Data(base64Encoded: $1)!) }
    XCTAssertEqual(chunks.count, (motion.frames + motion.chunkFrames - 1) / motion.chunkFrames)
    let (positions, visible) = try ReviewMotionCodec.decode(chunks, frames: motion.frames, points: n, chunkFrames: motion.chunkFrames)
    XCTAssertEqual(positions.count, motion.frames * n * 3)
    XCTAssertEqual(visible.count, motion.frames * n)
    /// The nodes' local frame: the calibration frame (z up; the scene's root turns it to glTF's y up).
    func gltf(_ p: SIMD3<Double>) -> [Double] { [p.x, p.y, p.z] }
    for k in [0, 5, 19, 49] {
      let t = Double(k) / SyntheticScene.fps
      for (point, expected) in [(ball, gltf(SyntheticScene.ball(t: t))), (nose, gltf(SyntheticScene.playerJoint(0, "nose", t: t)))] {
        for a in 0..<3 {
          XCTAssertEqual(Double(positions[(k * n + point) * 3 + a]) / 1000, expected[a], accuracy: 0.0006, "frame \(k) point \(point) axis \(a)")
        }
        XCTAssertEqual(visible[k * n + point], 1)
      }
    }
    XCTAssertEqual(visible[(30 - SyntheticScene.firstFrame) * n + ball], 0, "the ball has no data at frame 30")

    let (json, _) = try ReviewSceneSplit.chunks(scene)
    let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    XCTAssertNil(root["animations"])
    XCTAssertNotNil(root["meshes"])
    XCTAssertLessThan(scene.count, glb.count, "the static scene is smaller than the animated one")
  }
}
