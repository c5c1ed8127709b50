@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Ray-based association and pose triangulation on hand-built scenes (no simulator needed).
final class AssociationTests: XCTestCase {
  let cameras: [Camera] = (0..<4).map { i in
    let a = 2 * Double.pi * (Double(i) + 0.5) / 4
    return Camera.lookingAt(
      SIMD3(0, 0, 0.9), from: SIMD3(4.5 * cos(a), 4.5 * sin(a), 2.5), name: "cam\(i + 1)",
      imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: [-0.1, 0.04, 0, 0, 0])
  }

  /// A crude standing figure: 17 COCO points around `root`.
  func figure(at root: SIMD3<Double>) -> [SIMD3<Double>] {
    let offsets: [SIMD3<Double>] = [
      [0, 0, 1.65], [0.03, 0.03, 1.68], [0.03, -0.03, 1.68], [0, 0.07, 1.66], [0, -0.07, 1.66],
      [0, 0.2, 1.45], [0, -0.2, 1.45], [0.05, 0.25, 1.15], [0.05, -0.25, 1.15], [0.2, 0.25, 0.95],
      [0.2, -0.25, 0.95], [0, 0.1, 0.95], [0, -0.1, 0.95], [0.02, 0.1, 0.5], [0.02, -0.1, 0.5],
      [0, 0.1, 0.08], [0, -0.1, 0.08],
    ]
    return offsets.map { root + $0 }
  }

  func detections(_ people: [[SIMD3<Double>]], in camera: Camera) -> [PersonDetection2D] {
    people.map { joints in
      PersonDetection2D(keypoints: camera.project(joints).map { p in Keypoint2D(x: p!.x, y: p!.y, confidence: 0.9) })
    }
  }

  func testThreePeopleInShuffledOrderAreSeparatedAndTriangulated() throws {
    let truth = [figure(at: SIMD3(-2, 0.3, 0)), figure(at: SIMD3(2, -0.2, 0)), figure(at: SIMD3(0.5, 2.0, 0))]
    var people: [[PersonDetection2D]] = []
    for (c, camera) in cameras.enumerated() {
      var d = detections(truth, in: camera)
      d = Array(d[(c % d.count)...] + d[..<(c % d.count)])  // a different order in every camera
      people.append(d)
    }
    var options = ReconstructionOptions()
    let rays = try cameras.indices.map { try ViewRays(camera: cameras[$0], people: people[$0], minConfidence: 0.1) }
    let clusters = PeopleAssociation.associate(rays: rays, options: options)
    XCTAssertEqual(clusters.count, 3)
    XCTAssertTrue(clusters.allSatisfy { $0.members.count == 4 })
    options.triangulation = .robust
    let poses = try PoseTriangulation.triangulate(
      clusters: clusters, people: people, cameras: cameras, skeleton: .coco17,
      triangulator: Triangulator(cameras: cameras, options: options.triangulation))
    for pose in poses {
      let nose = pose.joints[0]!.position
      let person = truth.min { length($0[0] - nose) < length($1[0] - nose) }!
      for j in 0..<17 { assertClose(pose.joints[j]!.position, person[j], absolute: 1e-6) }
    }
  }

  func testALeftRightSwapInOneViewIsRepaired() throws {
    let truth = figure(at: SIMD3(-2, 0.3, 0))
    var people = cameras.map { detections([truth], in: $0) }
    for (l, r) in Skeleton.coco17.mirrorPairs { people[1][0].keypoints.swapAt(l, r) }
    let cluster = PersonCluster(members: [0: 0, 1: 0, 2: 0, 3: 0])
    var options = TriangulationOptions.robust
    options.maxReprojectionPx = 1000  // keep the swapped view in, so only the repair can fix it
    let poses = try PoseTriangulation.triangulate(
      clusters: [cluster], people: people, cameras: cameras, skeleton: .coco17,
      triangulator: Triangulator(cameras: cameras, options: .robust))
    for j in 0..<17 { assertClose(poses[0].joints[j]!.position, truth[j], absolute: 1e-6) }
    XCTAssertEqual(poses[0].joints[9]?.viewCount, 4, "the repaired view counts again")
    _ = options
  }
}
