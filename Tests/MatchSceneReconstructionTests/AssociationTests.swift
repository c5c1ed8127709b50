@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Ray-based association and pose triangulation on hand-built scenes (no simulator needed).
final class AssociationTests: XCTestCase {
  let cameras = fourRingCameras

  func figure(at root: SIMD3<Double>) -> [SIMD3<Double>] { standingFigure(at: root) }

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
