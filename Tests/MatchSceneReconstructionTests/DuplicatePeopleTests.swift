@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import XCTest

/// One person triangulated twice from complementary camera sets is merged into one person; two people
/// side by side never are (at 2× keypoint noise a player's four views made a two-camera
/// pose of 13 joints and one of 7 whose centres stood 0.38 m apart, and his identity split).
final class DuplicatePeopleTests: XCTestCase {
  let skeleton = Skeleton.coco17
  let up = SIMD3<Double>(0, 0, 1)
  var limbs: [(Int, Int)] { Pose3D.signatureLimbs(skeleton) }

  /// A player in a wide table-tennis stance facing +x at ground place (x, y), the playing arm reaching
  /// forward: COCO-17 joints in metres.
  func stance(x: Double, y: Double) -> [SIMD3<Double>] {
    var p = [SIMD3<Double>](repeating: .zero, count: skeleton.count)
    func set(_ name: String, _ dx: Double, _ dy: Double, _ z: Double) { p[skeleton.index(of: name)!] = SIMD3(x + dx, y + dy, z) }
    set("nose", 0.1, 0, 1.55)
    for (side, s) in [("left", 1.0), ("right", -1.0)] {
      set("\(side)_eye", 0.12, 0.03 * s, 1.58); set("\(side)_ear", 0.08, 0.07 * s, 1.56)
      set("\(side)_shoulder", 0.05, 0.20 * s, 1.38); set("\(side)_hip", 0, 0.14 * s, 0.90)
      set("\(side)_knee", 0.1, 0.35 * s, 0.50); set("\(side)_ankle", 0, 0.45 * s, 0.08)
    }
    set("left_elbow", 0.3, 0.3, 1.15); set("left_wrist", 0.55, 0.3, 1.1)
    set("right_elbow", 0.1, -0.3, 1.1); set("right_wrist", 0.3, -0.25, 0.95)
    return p
  }

  func pose(_ joints: [SIMD3<Double>], only names: [String]? = nil, cameras: [Int]) -> Pose3D {
    let keep = names.map { Set($0.compactMap { skeleton.index(of: $0) }) }
    return Pose3D(
      joints: joints.enumerated().map { j, p in
        keep.map { $0.contains(j) } ?? true ? TriangulatedPoint(position: p, meanReprojectionPx: 2, viewCount: 2) : nil
      },
      cameras: cameras)
  }

  /// Cameras 1 and 2 see the whole player; cameras 0 and 3 only his knees, ankles, left arm and nose,
  /// triangulated 10 cm off along y (the depth error of a two-camera pose at 2× noise). The partial
  /// pose has no two torso joints, so its centre is the median of what it has: 0.35 m from the whole
  /// pose's, beyond the 0.3 m centre rule. Most shared joints lie within half a body scale: one person.
  func testComplementaryPartialPoseOfOnePersonIsMerged() throws {
    let truth = stance(x: 2, y: 0)
    let whole = pose(truth, cameras: [1, 2])
    let partial = pose(
      truth.map { $0 + SIMD3(0, 0.1, 0) },
      only: ["left_knee", "left_ankle", "right_knee", "right_ankle", "left_elbow", "left_wrist", "nose"], cameras: [0, 3])
    let a = try XCTUnwrap(whole.centre(torso: skeleton.torso)), b = try XCTUnwrap(partial.centre(torso: skeleton.torso))
    XCTAssertGreaterThan(IdentityTracker.groundDistance(a, b, up: up), 0.3, "the centre rule alone misses it")
    let clusters = [PersonCluster(members: [1: 0, 2: 0]), PersonCluster(members: [0: 0, 3: 0])]
    XCTAssertEqual(Reconstructor.mergeDuplicates(clusters, poses: [whole, partial], torso: skeleton.torso, up: up).count, 2)
    let merged = Reconstructor.mergeDuplicates(clusters, poses: [whole, partial], torso: skeleton.torso, up: up, limbs: limbs)
    XCTAssertEqual(merged, [PersonCluster(members: [0: 0, 1: 0, 2: 0, 3: 0])])
  }

  /// Two people shoulder to shoulder (centres 0.4 m apart, one shoulder width) seen by complementary
  /// cameras, and a partner standing diagonally behind (0.45 m): never one person.
  func testTwoPeopleSideBySideStayTwo() {
    for offset in [SIMD3<Double>(0, 0.4, 0), SIMD3(-0.32, 0.32, 0)] {
      let a = pose(stance(x: 2, y: 0), cameras: [1, 2]), b = pose(stance(x: 2, y: 0).map { $0 + offset }, cameras: [0, 3])
      XCTAssertFalse(DuplicatePeople.overlap(a, b, limbs: limbs), "offset \(offset)")
      let clusters = [PersonCluster(members: [1: 0, 2: 0]), PersonCluster(members: [0: 0, 3: 0])]
      XCTAssertEqual(
        Reconstructor.mergeDuplicates(clusters, poses: [a, b], torso: skeleton.torso, up: up, limbs: limbs).count, 2,
        "offset \(offset)")
    }
  }

  /// The body scale is the poses' own: a child's (limbs two thirds as long) gives two thirds the
  /// tolerance, so two children shoulder to shoulder stay two as well.
  func testBodyScaleComesFromThePoses() throws {
    let adult = pose(stance(x: 0, y: 0), cameras: [0])
    let child = pose(stance(x: 0, y: 0).map { SIMD3($0.x * 2 / 3, $0.y * 2 / 3, $0.z * 2 / 3) }, cameras: [0])
    let scale = try XCTUnwrap(DuplicatePeople.bodyScale(adult, adult, limbs: limbs))
    let childScale = try XCTUnwrap(DuplicatePeople.bodyScale(child, child, limbs: limbs))
    XCTAssertEqual(childScale / scale, 2.0 / 3.0, accuracy: 1e-9)
    let other = pose(child.joints.map { $0!.position + SIMD3(0, 0.27, 0) }, cameras: [1])
    XCTAssertFalse(DuplicatePeople.overlap(child, other, limbs: limbs))
  }
}
