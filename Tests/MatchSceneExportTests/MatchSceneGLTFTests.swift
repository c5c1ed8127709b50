import Foundation
import MatchSceneAssets
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport

final class MatchSceneGLTFTests: XCTestCase {
  func rotation(_ q: [Float]) -> Matrix3 {
    Quaternion.toMatrix(SIMD4(Double(q[0]), Double(q[1]), Double(q[2]), Double(q[3])))
  }

  func testNodeNamesAndHierarchy() throws {
    let doc = try SyntheticScene.document()
    let nodes = doc.nodes!
    let root = try XCTUnwrap(doc.node("matchscene"))
    XCTAssertEqual(doc.scenes?.count, 1)
    XCTAssertEqual(doc.scenes?[0].nodes, [root], "matchscene is the only root")
    let children = Set(nodes[root].children!.map { nodes[$0].name! })
    XCTAssertEqual(children, ["venue", "ball", "P1", "P2", "P1/body", "P2/body", "cam_left", "cam_right", "sun"])
    for player in ["P1", "P2"] {
      let p = try XCTUnwrap(doc.node(player))
      let names = nodes[p].children!.map { nodes[$0].name! }
      XCTAssertEqual(Array(names.prefix(17)), Skeleton.coco17.keypoints)
      XCTAssertEqual(names.count, 17 + Skeleton.coco17.bones.count)
      XCTAssertTrue(names.contains("\(player)/left_elbow-left_wrist"))
      XCTAssertEqual(nodes[p].extras, ["track": .string(player), "kind": "player"])
    }
    XCTAssertNotNil(nodes[doc.node("ball")!].mesh)
    XCTAssertEqual(nodes[doc.node("cam_left")!].camera, 0)
    XCTAssertEqual(nodes[doc.node("cam_right")!].camera, 1)
    XCTAssertEqual(doc.extensionsUsed, ["KHR_lights_punctual"])
    // Each player a skin over its keypoint and limb nodes (no mesh of their own), rooted at the player.
    XCTAssertEqual(doc.skins?.map(\.name), ["P1", "P2"])
    for (k, skin) in (doc.skins ?? []).enumerated() {
      XCTAssertEqual(skin.skeleton, doc.node(skin.name!))
      XCTAssertEqual(skin.joints, nodes[skin.skeleton!].children)
      XCTAssertTrue(skin.joints.allSatisfy { nodes[$0].mesh == nil })
      let body = try XCTUnwrap(doc.node("\(skin.name!)/body"))
      XCTAssertEqual(nodes[body].skin, k)
      XCTAssertNil(nodes[body].translation)
    }
    let unrigged = try SyntheticScene.document(options: SyntheticScene.assimpOptions)
    XCTAssertNil(unrigged.skins)
    XCTAssertNil(unrigged.extensionsUsed)
    XCTAssertNotNil(unrigged.nodes![unrigged.node("left_wrist")!].mesh, "unrigged keypoints carry their sphere")
    XCTAssertEqual(Set(unrigged.nodes!.compactMap(\.name)), Set(nodes.compactMap(\.name)).subtracting(["P1/body", "P2/body", "sun"]))
  }

  func testRootRotationTurnsWorldUpIntoGLTFUp() throws {
    let zUp = try SyntheticScene.document()
    let r = rotation(zUp.nodes![zUp.node("matchscene")!].rotation!)
    assertClose(r * SIMD3(0, 0, 1), SIMD3(0, 1, 0), absolute: 1e-6, "world +z becomes glTF +y")
    assertClose(r * SIMD3(1, 0, 0), SIMD3(1, 0, 0), absolute: 1e-6, "the table's length stays along x")
    assertClose(r * SIMD3(0, 1, 0), SIMD3(0, 0, -1), absolute: 1e-6, "right-handed")

    // A calibration with −y up (e.g. an OpenCV camera frame used as the world).
    let yDown = try MatchSceneGLTF.build(
      motion: SyntheticScene.motion(), cameras: [], sport: SyntheticScene.sport(), worldUp: SIMD3(0, -2, 0),
      options: SceneOptions())
    let r2 = rotation(yDown.nodes![yDown.node("matchscene")!].rotation!)
    assertClose(r2 * SIMD3(0, -1, 0), SIMD3(0, 1, 0), absolute: 1e-6)
    XCTAssertEqual(yDown.scenes?[0].extras?["up"], [0, -1, 0])
  }

  func testOneAnimationWithOneSharedTimeAccessorCoveringEveryFrame() throws {
    let doc = try SyntheticScene.document()
    XCTAssertEqual(doc.animations?.map(\.name), ["match"])
    let match = doc.animations![0]
    let inputs = Set(match.samplers.map(\.input))
    XCTAssertEqual(inputs.count, 1, "one shared input accessor")
    let times = doc.floats(inputs.first!)
    XCTAssertEqual(times.count, SyntheticScene.frameCount)
    XCTAssertEqual(times.first, 0)
    for (k, t) in times.enumerated() { assertClose(Double(t), Double(k) / 50, absolute: 1e-6) }
    XCTAssertTrue(match.samplers.allSatisfy { $0.interpolation == "LINEAR" || $0.interpolation == "STEP" })
    // Every animated node: ball, 2 × 17 keypoints, 2 × 16 limbs, and 2 players (visibility).
    XCTAssertEqual(Set(match.channels.compactMap(\.target.node)).count, 1 + 34 + 32 + 2)
  }

  func testBallAndKeypointTranslationsEqualTheInput() throws {
    let doc = try SyntheticScene.document()
    let ball = doc.vec3s(doc.output(animation: 0, node: doc.node("ball")!, path: "translation")!)
    for (k, p) in ball.enumerated() {
      assertClose(p, SyntheticScene.ball(t: Double(k) / 50), absolute: 1e-6)
    }
    let p2 = doc.node("P2")!
    let wrist = doc.nodes![p2].children!.first { doc.nodes![$0].name == "left_wrist" }!
    let values = doc.vec3s(doc.output(animation: 0, node: wrist, path: "translation")!)
    for (k, p) in values.enumerated() {
      assertClose(p, SyntheticScene.playerJoint(1, "left_wrist", t: Double(k) / 50), absolute: 1e-6)
    }
    // The node's static translation is the first frame, for viewers that do not play animations.
    assertClose(
      doc.nodes![wrist].translation.map { SIMD3(Double($0[0]), Double($0[1]), Double($0[2])) }!,
      SyntheticScene.playerJoint(1, "left_wrist", t: 0), absolute: 1e-6)
  }

  func testLimbsStayAttachedToTheirJointsEveryFrame() throws {
    let doc = try SyntheticScene.document()
    for (i, player) in ["P1", "P2"].enumerated() {
      for (a, b) in Skeleton.coco17.bones {
        let from = Skeleton.coco17.keypoints[a]
        let to = Skeleton.coco17.keypoints[b]
        let node = try XCTUnwrap(doc.node("\(player)/\(from)-\(to)"))
        let t = doc.vec3s(doc.output(animation: 0, node: node, path: "translation")!)
        let q = doc.floats(doc.output(animation: 0, node: node, path: "rotation")!)
        let s = doc.vec3s(doc.output(animation: 0, node: node, path: "scale")!)
        for k in [0, 17, 49] {
          let time = Double(k) / 50
          let start = SyntheticScene.playerJoint(i, from, t: time)
          let end = SyntheticScene.playerJoint(i, to, t: time)
          let r = rotation(Array(q[(4 * k)..<(4 * k + 4)]))
          // The prism runs from local (0, 0, 0) to (0, 1, 0); T·R·S maps them onto the joints.
          assertClose(t[k], start, absolute: 1e-6)
          assertClose(t[k] + r * (s[k] * SIMD3(0, 1, 0)), end, absolute: 1e-5, "\(player) \(from)-\(to) frame \(k)")
          XCTAssertEqual(s[k].x, 1)
          XCTAssertEqual(s[k].z, 1)
        }
      }
    }
  }

  func testEveryQuaternionIsUnitLength() throws {
    let doc = try SyntheticScene.document()
    for node in doc.nodes! {
      guard let q = node.rotation else { continue }
      let n = q.map { Double($0) * Double($0) }.reduce(0, +).squareRoot()
      assertClose(n, 1, absolute: 1e-6, node.name ?? "")
    }
    for sampler in doc.animations![0].samplers where doc.accessors![sampler.output].type == "VEC4" {
      let q = doc.floats(sampler.output)
      for k in 0..<(q.count / 4) {
        let n = q[(4 * k)..<(4 * k + 4)].map { Double($0) * Double($0) }.reduce(0, +).squareRoot()
        assertClose(n, 1, absolute: 1e-6)
      }
    }
  }

  func testHiddenFramesHoldTheNearestKnownPosition() throws {
    let first = SyntheticScene.firstFrame
    // Ball unseen for its first 5 frames and frames 30–34; P1 unseen for frames 20–25.
    let rec = SyntheticScene.motion(skip: { track, frame in
      (track == "ball" && (frame < first + 5 || (30...34).contains(frame - first)))
        || (track == "P1" && (20...25).contains(frame - first))
    })
    let doc = try SyntheticScene.document(rec)
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    let ball = doc.vec3s(doc.output(animation: 0, node: doc.node("ball")!, path: "translation")!)
    XCTAssertEqual(ball.count, SyntheticScene.frameCount)
    for k in 0..<5 {
      assertClose(ball[k], SyntheticScene.ball(t: 5.0 / 50), absolute: 1e-6, "start holds the first seen")
    }
    for k in 30...34 {
      assertClose(ball[k], SyntheticScene.ball(t: 29.0 / 50), absolute: 1e-6, "gap holds the last seen")
    }
    assertClose(ball[35], SyntheticScene.ball(t: 35.0 / 50), absolute: 1e-6)
    XCTAssertTrue(ball.allSatisfy { length($0) > 0.5 }, "never at the origin")

    let p1 = doc.node("P1")!
    let nose = doc.nodes![p1].children!.first { doc.nodes![$0].name == "nose" }!
    let noses = doc.vec3s(doc.output(animation: 0, node: nose, path: "translation")!)
    for k in 20...25 { assertClose(noses[k], SyntheticScene.playerJoint(0, "nose", t: 19.0 / 50), absolute: 1e-6) }
    XCTAssertTrue(noses.allSatisfy { $0.z > 1.5 }, "the head never drops to the floor")
  }

  func testTracksAndKeypointsWithoutDataAreLeftOut() throws {
    var rec = SyntheticScene.points()
    rec.removeAll { ($0.track == "P2" && $0.joint == "left_ear") || $0.track == "ball" }
    let doc = try SyntheticScene.document(SyntheticScene.motion(rec))
    XCTAssertNil(doc.node("ball"))
    let p2 = doc.node("P2")!
    let names = doc.nodes![p2].children!.map { doc.nodes![$0].name! }
    XCTAssertFalse(names.contains("left_ear"))
    XCTAssertFalse(names.contains("P2/left_eye-left_ear"))
    XCTAssertEqual(names.count, 16 + 15)
    XCTAssertNotNil(doc.node("left_ear"), "P1 keeps its left ear")
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }

  func testCamerasSitAtTheirTruePose() throws {
    let doc = try SyntheticScene.document()
    for (i, camera) in SyntheticScene.cameras.enumerated() {
      let node = doc.nodes![doc.node(camera.name)!]
      let r = rotation(node.rotation!)
      let t = node.translation!
      assertClose(SIMD3(Double(t[0]), Double(t[1]), Double(t[2])), camera.center, absolute: 1e-5)
      // glTF cameras look down local −z with +y up; OpenCV's image y points down.
      assertClose(r * SIMD3(0, 0, -1), camera.forward, absolute: 1e-6)
      let imageDown = camera.camFromWorld.rotation.transposed * SIMD3(0, 1, 0)
      assertClose(r * SIMD3(0, 1, 0), -imageDown, absolute: 1e-6)
      XCTAssertGreaterThan(dot(r * SIMD3(0, 1, 0), SIMD3(0, 0, 1)), 0, "camera up points to the sky")
      let perspective = doc.cameras![node.camera!].perspective!
      XCTAssertEqual(doc.cameras![node.camera!].name, camera.name)
      assertClose(perspective.yfov, 2 * atan(Double(camera.imageSize.height) / (2 * camera.fy)), absolute: 1e-12)
      assertClose(
        perspective.aspectRatio!, Double(camera.imageSize.width) / Double(camera.imageSize.height), absolute: 1e-12)
      XCTAssertEqual(i, node.camera)
    }
  }

  func testSceneExtrasCarryTimingAndCallerData() throws {
    let events: JSONValue = [["type": "bounce", "frame": 20]]
    let doc = try SyntheticScene.document(
      options: SceneOptions(sceneExtras: ["events": events, "fps": "overridden?"]))
    let extras = try XCTUnwrap(doc.scenes?[0].extras)
    XCTAssertEqual(extras["fps"], 50)
    XCTAssertEqual(extras["firstFrame"], 10)
    XCTAssertEqual(extras["lastFrame"], 59)
    XCTAssertEqual(extras["generator"], "MatchScene")
    XCTAssertEqual(extras["up"], [0, 0, 1])
    XCTAssertEqual(extras["events"], events)
  }

  func testClipsAreSeparateAnimationsWithTheirOwnTimeFromZero() throws {
    let doc = try SyntheticScene.document(
      options: SceneOptions(clips: [(name: "rally-1", frames: 30...39), (name: "serve", frames: 12...14)]))
    XCTAssertEqual(doc.animations?.map(\.name), ["match", "rally-1", "serve"])
    let inputs = doc.animations!.map { Set($0.samplers.map(\.input)) }
    XCTAssertTrue(inputs.allSatisfy { $0.count == 1 })
    XCTAssertEqual(Set(inputs.map { $0.first! }).count, 3, "each animation has its own time accessor")
    let clipTimes = doc.floats(inputs[1].first!)
    XCTAssertEqual(clipTimes.count, 10)
    XCTAssertEqual(clipTimes.first, 0)
    assertClose(Double(clipTimes.last!), 9.0 / 50, absolute: 1e-6)
    let ball = doc.vec3s(doc.output(animation: 1, node: doc.node("ball")!, path: "translation")!)
    for (k, p) in ball.enumerated() {
      assertClose(p, SyntheticScene.ball(t: Double(30 - SyntheticScene.firstFrame + k) / 50), absolute: 1e-6)
    }
    XCTAssertEqual(doc.animations![1].extras?["firstFrame"], 30)
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }

  func testNonFiniteInputIsRejected() throws {
    var rec = SyntheticScene.points()
    rec[40].position.y = .nan  // 35 points per frame: frame 11, P1's sixth keypoint
    XCTAssertThrowsError(try SyntheticScene.document(SyntheticScene.motion(rec))) { error in
      XCTAssertTrue(error is GLTFError)
      XCTAssertTrue("\(error)".contains("track P1 joint left_shoulder frame 11"), "\(error)")
    }
    var badFPS = SyntheticScene.motion()
    badFPS.fps = 0
    XCTAssertThrowsError(try SyntheticScene.document(badFPS))
    XCTAssertThrowsError(try SyntheticScene.document(options: SceneOptions(jointRadius: 0)))
    XCTAssertThrowsError(try SyntheticScene.document(options: SceneOptions(interpolation: .cubicSpline)))
    XCTAssertThrowsError(
      try MatchSceneGLTF.build(
        motion: SyntheticScene.motion(), cameras: [], sport: SyntheticScene.sport(), worldUp: .zero,
        options: SceneOptions()))
  }

  func testEmptyReconstructionGivesAStaticScene() throws {
    let doc = try SyntheticScene.document(MotionModel(fps: 50, skeleton: .coco17, frames: nil))
    XCTAssertNil(doc.animations)
    XCTAssertNotNil(doc.node("venue"))
    XCTAssertNil(doc.scenes?[0].extras?["firstFrame"])
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }
}
