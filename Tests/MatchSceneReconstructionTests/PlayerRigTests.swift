import MatchSceneCore
import MatchSceneGeometry
import MatchSceneReconstruction
import XCTest

/// Every camera's pose from the people of a generated match alone (`PlayerRig`: pairwise essential
/// matrices, chained baselines, bundle adjustment), the world fixed by a stated height (`StatureScale`),
/// and the pairwise relative pose itself (`RelativePose`).
final class PlayerRigTests: XCTestCase {
  func truth() -> [Camera] {
    [SIMD3(1, -6, 3), SIMD3(-5, 4, 2.5), SIMD3(6, 1, 3.5), SIMD3(-4, -4, 2.8)].enumerated().map { i, eye in
      Camera.lookingAt(
        SIMD3(0, 0, 0.9), from: eye, name: "cam\(i + 1)", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400,
        distortion: [-0.1, 0.05, 0, 0, 0])
    }
  }

  /// A standing COCO-17 person of stature `h` (limbs at Drillis & Contini's shares), facing +x, feet on
  /// the floor at the origin.
  func person(_ h: Double) -> [SIMD3<Double>] {
    let ankle = 0.039 * h, knee = ankle + 0.246 * h, hip = knee + 0.245 * h, shoulder = 0.818 * h
    let elbow = shoulder - 0.186 * h, wrist = elbow - 0.146 * h
    func lr(_ y: Double, _ z: Double, x: Double = 0) -> [SIMD3<Double>] { [SIMD3(x, y, z), SIMD3(x, -y, z)] }
    var joints: [SIMD3<Double>] = [SIMD3(0.08, 0, 0.92 * h)]
    joints += lr(0.03, 0.94 * h, x: 0.07)
    joints += lr(0.07, 0.93 * h)
    for (y, z) in [(0.18, shoulder), (0.2, elbow), (0.2, wrist), (0.1, hip), (0.1, knee), (0.1, ankle)] { joints += lr(y, z) }
    return joints
  }

  /// `people` people (statures 1.70, 1.80, 1.75) walking about the floor around the table, and a ball,
  /// over `frames` frames; each camera lists the people in its own order. Camera indices in `blind` see
  /// nobody.
  func match(cameras: [Camera], frames: Int = 60, people: Int = 2, blind: Set<Int> = []) -> Match {
    let statures = [1.70, 1.80, 1.75]
    var detections: [String: CameraDetections] = [:]
    for (c, camera) in cameras.enumerated() {
      var d = CameraDetections()
      for f in 0..<frames where !blind.contains(c) {
        var seen: [PersonDetection2D] = []
        for p in 0..<people {
          let u = Double(f) * 0.21 + Double(p) * 2.1
          let at = SIMD3(Double(p == 0 ? -1 : 1) * (2.2 + 0.6 * sin(u)), 1.4 * cos(0.7 * u), 0)
          let yaw = Matrix3.rodrigues(SIMD3(0, 0, 0.8 * sin(1.3 * u)))
          let joints = person(statures[p]).map { at + yaw * $0 }
          seen.append(PersonDetection2D(keypoints: joints.map { j in
            camera.project(j).map { Keypoint2D(x: $0.x, y: $0.y, confidence: 0.9) } ?? .missing
          }))
        }
        d.people[f] = c % 2 == 0 ? seen : seen.reversed()
        let ball = SIMD3(1.8 * sin(Double(f) * 0.3), 0.5 * cos(Double(f) * 0.5), 0.9 + 0.5 * abs(sin(Double(f) * 0.4)))
        if let b = camera.project(ball) { d.balls[f] = [BallDetection2D(x: b.x, y: b.y, confidence: 0.9)] }
      }
      detections[camera.name] = d
    }
    var unposed = cameras
    for i in unposed.indices { unposed[i].camFromWorld = .identity }
    return Match(fps: 60, skeleton: .coco17, cameras: unposed, detections: detections)
  }

  func angleDegrees(_ a: Matrix3, _ b: Matrix3) -> Double { length((a * b.transposed).rodriguesVector) * 180 / .pi }

  func testTheRelativePoseOfTwoCamerasComesBackFromTheirPixels() throws {
    let cameras = truth()
    let points = (0..<60).map { (k: Int) -> SIMD3<Double> in
      let u = Double(k)
      let z: Double = 0.1 + 0.9 * (1 + sin(u * 0.23))
      return SIMD3(2.5 * sin(u * 0.37), 1.5 * cos(u * 0.61), z)
    }
    var a = points.map { cameras[0].project($0)! }
    let b = points.map { cameras[1].project($0)! }
    a[3] += SIMD2(80, -60)  // one gross outlier
    let result = try XCTUnwrap(RelativePose.solve(a: cameras[0], b: cameras[1], pixelsA: a, pixelsB: b, thresholdPx: 1))
    let expected = cameras[1].camFromWorld * cameras[0].camFromWorld.inverse
    XCTAssertLessThan(angleDegrees(result.bFromA.rotation, expected.rotation), 1e-3)
    XCTAssertLessThan(length(result.bFromA.translation - normalize(expected.translation)), 1e-4)
    XCTAssertFalse(result.inliers[3])
    XCTAssertEqual(result.inlierCount, points.count - 1)
    XCTAssertNil(RelativePose.solve(a: cameras[0], b: cameras[1], pixelsA: Array(a.prefix(4)), pixelsB: Array(b.prefix(4))))
  }

  /// Three people listed in different orders by the cameras, and a ball: the rig comes back up to a
  /// similarity; the stated height then gives the scale, z up and the floor at z = 0.
  func testTheRigComesBackFromThePlayersAndTheStatedHeightScalesIt() throws {
    let cameras = truth()
    let rig = try PlayerRig.solve(match: match(cameras: cameras, frames: 30, people: 3), file: "match")
    XCTAssertEqual(rig.reference, 0)
    XCTAssertEqual(rig.cameras[0].camFromWorld, .identity)
    let alignment = try XCTUnwrap(Similarity3.fit(from: rig.cameras.map(\.center), to: cameras.map(\.center)))
    for (posed, camera) in zip(rig.cameras, cameras) {
      let moved = alignment.apply(posed)
      XCTAssertLessThan(length(moved.center - camera.center), 1e-4, camera.name)
      XCTAssertLessThan(angleDegrees(moved.camFromWorld.rotation, camera.camFromWorld.rotation), 1e-3, camera.name)
    }
    // The people's median stature is 1.75 m: the scale is exact; up is +z and the floor is z = 0.
    let scaled = try XCTUnwrap(
      StatureScale.fit(cameras: rig.cameras, reference: 0, points: rig.points, keys: rig.keys, skeleton: .coco17, stature: 1.75))
    let world = rig.cameras.map { scaled.similarity.apply($0) }
    for (posed, camera) in zip(world, cameras) {
      XCTAssertEqual(posed.center.z, camera.center.z, accuracy: 3e-3, camera.name)
    }
    XCTAssertEqual(scaled.similarity.scale * scaled.measuredStature, 1.75, accuracy: 1e-9)
    let baseline = length(cameras[1].center - cameras[0].center)
    XCTAssertEqual(length(world[1].center - world[0].center), baseline, accuracy: 1e-3 * baseline)
  }

  func testACameraThatSharesNoPeopleWithTheReferenceIsNamed() throws {
    let cameras = truth()
    XCTAssertThrowsError(try PlayerRig.solve(match: match(cameras: cameras, blind: [2]), file: "match")) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("too few shared keypoints between cameras cam1 and cam3"), text)
    }
  }
}
