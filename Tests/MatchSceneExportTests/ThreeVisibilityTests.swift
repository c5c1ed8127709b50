import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneReview

/// What three.js r111 (Debian's `libjs-three`, headless Chromium) shows of joints, limbs and the ball
/// that have no data at some frames: at every frame of the match, each is drawn (its world matrix
/// invertible) exactly where the reconstruction has it, and hidden elsewhere.
final class ThreeVisibilityTests: XCTestCase {
  struct Shown: Decodable {
    var frames: Int
    var ball: [Bool]
    var leftWrist: [Bool]
    var forearm: [Bool]
    var rightWrist: [Bool]
    var bodies: Int
  }

  func testNoFrameShowsAJointLimbOrBallWithoutData() throws {
    let browser = try Chromium.executable()
    let first = SyntheticScene.firstFrame
    // P1's left wrist unseen at frames 10–14 and 30; the ball for its first 5 frames and 20–24.
    var rec = SyntheticScene.points(skip: { track, frame in
      track == "ball" && (frame < first + 5 || (20...24).contains(frame - first))
    })
    rec.removeAll {
      $0.track == "P1" && $0.joint == "left_wrist" && ((10...14).contains($0.frame - first) || $0.frame - first == 30)
    }
    var options = SceneOptions()
    options.rotationEncoding = .normalizedShort
    let glb = try GLTFWriter.glbData(try SyntheticScene.document(SyntheticScene.motion(rec), options: options))
    let folder = try makeTemporaryFolder("matchscene-three-visibility")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("probe.html")
    try AtomicFile.write(probePage(glb: glb), to: page)
    let dom = try Chromium.run(browser, page: page)
    XCTAssertEqual(Chromium.pre("errors", in: dom) ?? "", "", "page errors")
    let json = try XCTUnwrap(Chromium.pre("result", in: dom), "no result in the DOM:\n\(dom.prefix(2000))")
    let shown = try JSONDecoder().decode(Shown.self, from: Data(json.utf8))
    XCTAssertEqual(shown.frames, SyntheticScene.frameCount)
    XCTAssertEqual(shown.ball.count, shown.frames - 1, "every frame interval but the last (the clip ends at its key)")
    XCTAssertEqual(shown.bodies, 2, "a skinned body per player")
    for k in 0..<(shown.frames - 1) {
      let wrist = !((10...14).contains(k) || k == 30)
      XCTAssertEqual(shown.leftWrist[k], wrist, "P1 left_wrist frame \(k)")
      XCTAssertEqual(shown.forearm[k], wrist, "P1 forearm frame \(k)")
      XCTAssertEqual(shown.ball[k], !(k < 5 || (20...24).contains(k)), "ball frame \(k)")
      XCTAssertTrue(shown.rightWrist[k], "P1 right_wrist frame \(k)")
    }
  }

  /// Plays `match` frame by frame and reports, per frame, whether each probed node's world matrix is
  /// invertible (|det| > 1e-12: drawn) or not (the hidden scale 1e-5 on it or a parent, det ≤ 1e-15: hidden). Frame k is
  /// sampled at (k + ½) / fps, inside its interval: visibility keys are STEP (glTF §3.11: a STEP key
  /// holds from its time to the next), and at exactly k / fps three.js compares a double with a key
  /// time stored as Float32, which may round either side of it.
  private func probePage(glb: Data) -> String {
    Chromium.animationProbePage(
      glb: glb, clip: "match", bindJS: ViewerPage.bindTracksByNodeJS,
      body: """
        const p1 = gltf.scene.getObjectByName("P1");
        const find = (re) => { let f = null; p1.traverse((o) => { if (!f && re.test(o.name)) f = o; }); return f; };
        const nodes = { ball: gltf.scene.getObjectByName("ball"), leftWrist: child(p1, "left_wrist"),
          forearm: find(/left_elbow-left_wrist$/), rightWrist: child(p1, "right_wrist") };
        const shown = { ball: [], leftWrist: [], forearm: [], rightWrist: [] };
        const frames = Math.round(clip.duration * \(SyntheticScene.fps)) + 1;
        for (let k = 0; k < frames - 1; k++) {
          action.time = (k + 0.5) / \(SyntheticScene.fps);
          mixer.update(0);
          gltf.scene.updateMatrixWorld(true);
          for (const key in nodes) shown[key].push(Math.abs(nodes[key].matrixWorld.determinant()) > 1e-12);
        }
        let bodies = 0;
        gltf.scene.traverse((o) => { if (o.isSkinnedMesh) bodies++; });
        document.getElementById("result").textContent = JSON.stringify(Object.assign({ frames, bodies }, shown));
        """)
  }
}
