@testable import MatchSceneExport
import MatchSceneCore
import TestSupport
import XCTest

/// Players are hidden (scale `MatchSceneGLTF.hiddenScale`) where their track has no data for long, never frozen where last seen.
final class VisibilityTests: XCTestCase {
  func testPlayerHiddenBeforeAfterAndAcrossLongGaps() throws {
    let first = SyntheticScene.firstFrame
    // P2 appears at frame +5, vanishes for 30 frames (0.6 s at 50 fps) from +10, and ends at +44.
    let reconstruction = SyntheticScene.motion(skip: { track, frame in
      let k = frame - first
      return track == "P2" && (k < 5 || (10..<40).contains(k) || k > 44)
    })
    let doc = try SyntheticScene.document(reconstruction)
    let p2 = try XCTUnwrap(doc.node("P2"))
    let match = doc.animations![0]
    let channel = try XCTUnwrap(match.channels.first { $0.target.node == p2 && $0.target.path == "scale" })
    let sampler = match.samplers[channel.sampler]
    XCTAssertEqual(sampler.interpolation, "STEP")
    let scale = doc.floats(sampler.output)
    func visible(_ k: Int) -> Bool { scale[3 * k] == 1 }
    XCTAssertTrue(
      (0..<(scale.count / 3)).allSatisfy { k in visible(k) || scale[(3 * k)..<(3 * k + 3)].allSatisfy { $0 == MatchSceneGLTF.hiddenScale } },
      "a hidden player is scaled uniformly by the hidden scale, never by 0")
    XCTAssertFalse(visible(0))
    XCTAssertTrue(visible(5) && visible(9))
    XCTAssertFalse(visible(20), "a 0.6 s gap hides the player")
    XCTAssertTrue(visible(42))
    XCTAssertFalse(visible(49))
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }

  /// A keypoint, a limb touching it and the ball are hidden (uniform scale `MatchSceneGLTF.hiddenScale`, STEP:
  /// invertible, as Godot 3's importer needs) exactly at the frames where they have no data, shown elsewhere;
  /// the held position is never drawn.
  func testJointsLimbsAndBallHiddenWhereTheyHaveNoData() throws {
    let first = SyntheticScene.firstFrame
    // P1's left wrist unseen at frames 10–14 and 30; the ball unseen for its first 5 frames and 20–24.
    let rec = SyntheticScene.points(skip: { track, frame in
      (track == "ball" && (frame < first + 5 || (20...24).contains(frame - first)))
    })
    var gappy = rec
    gappy.removeAll {
      $0.track == "P1" && $0.joint == "left_wrist" && ((10...14).contains($0.frame - first) || $0.frame - first == 30)
    }
    for rigged in [true, false] {
      var options = SceneOptions()
      options.rigPlayers = rigged
      let doc = try SyntheticScene.document(SyntheticScene.motion(gappy), options: options)
      XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
      func scales(_ name: String, under parent: String? = nil) throws -> [Double] {
        let node = try XCTUnwrap(
          parent.map { p in doc.nodes![doc.node(p)!].children!.first { doc.nodes![$0].name == name } } ?? doc.node(name))
        let match = doc.animations![0]
        let channel = try XCTUnwrap(match.channels.first { $0.target.node == node && $0.target.path == "scale" })
        let sampler = match.samplers[channel.sampler]
        let values = doc.vec3s(sampler.output)
        XCTAssertEqual(values.count, SyntheticScene.frameCount, name)
        if name == "ball" || name == "left_wrist" { XCTAssertEqual(sampler.interpolation, "STEP", name) }
        let hidden = Double(MatchSceneGLTF.hiddenScale)
        // Hidden is the hidden scale on all three axes (uniform, so Godot can split it from a rotation), else 0.
        return values.map { $0.x == hidden && $0.y == hidden && $0.z == hidden ? 0 : $0.x * $0.y * $0.z }
      }
      let wrist = try scales("left_wrist", under: "P1")
      let forearm = try scales("P1/left_elbow-left_wrist")
      let ball = try scales("ball")
      for k in 0..<SyntheticScene.frameCount {
        let wristSeen = !((10...14).contains(k) || k == 30)
        XCTAssertEqual(wrist[k] != 0, wristSeen, "wrist frame \(k)")
        XCTAssertEqual(forearm[k] != 0, wristSeen, "forearm frame \(k)")
        XCTAssertEqual(ball[k] != 0, !(k < 5 || (20...24).contains(k)), "ball frame \(k)")
      }
      for values in [wrist, forearm, ball] { XCTAssertTrue(values.allSatisfy { $0 == 0 || $0 > 1e-4 }, "shown or hidden") }
      let rightWrist = try scales("right_wrist", under: "P1")
      XCTAssertTrue(rightWrist.allSatisfy { $0 == 1 }, "a joint seen throughout stays shown")
    }
  }
}
