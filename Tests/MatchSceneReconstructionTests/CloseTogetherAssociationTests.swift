@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Two people standing close together, each seen by all four cameras with detector noise: each must
/// come out as one four-camera person ("one person's four views formed two 2-camera people
/// 22 cm apart"), never split into two-camera halves.
final class CloseTogetherAssociationTests: XCTestCase {
  let cameras = fourRingCameras

  func figure(at root: SIMD3<Double>) -> [SIMD3<Double>] { standingFigure(at: root) }

  /// Whether `clusters` are exactly the two people, each with its detection in every camera.
  func correct(_ clusters: [PersonCluster]) -> Bool {
    clusters.map(\.members.count).sorted() == [4, 4] && clusters.allSatisfy { Set($0.members.values).count == 1 }
  }

  func testTwoPeopleCloseTogetherStayTwoFourCameraPeople() throws {
    var rng = SeededGenerator(seed: 21)
    let options = ReconstructionOptions()
    let triangulator = try Triangulator(cameras: cameras, options: .robust)
    var wrong = (pairwise: 0, reassigned: 0)
    var failures: [String] = []
    for separation in [0.35, 0.45, 0.6, 0.8] {
      for trial in 0..<20 {
        let a = rng.uniform(0...(2 * Double.pi))
        let centre = SIMD3(rng.uniform(-0.5...0.5), rng.uniform(-0.5...0.5), 0)
        let offset = 0.5 * separation * SIMD3(cos(a), sin(a), 0)
        let truth = [figure(at: centre - offset), figure(at: centre + offset)]
        let people: [[PersonDetection2D]] = cameras.map { camera in
          truth.map { joints in
            PersonDetection2D(keypoints: camera.project(joints).map { p in
              Keypoint2D(x: p!.x + 3 * rng.gaussian(), y: p!.y + 3 * rng.gaussian(), confidence: 0.9)
            })
          }
        }
        let rays = try cameras.indices.map { try ViewRays(camera: cameras[$0], people: people[$0], minConfidence: 0.1) }
        // The Reconstructor's steps: pairwise association, duplicates merged, re-assignment by projection.
        var clusters = PeopleAssociation.associate(rays: rays, options: options)
        var poses = try PoseTriangulation.triangulate(
          clusters: clusters, people: people, cameras: cameras, skeleton: .coco17, triangulator: triangulator)
        clusters = Reconstructor.mergeDuplicates(
          clusters, poses: poses, torso: Skeleton.coco17.torso, up: SIMD3(0, 0, 1), limbs: Pose3D.signatureLimbs(.coco17))
        if !correct(clusters) { wrong.pairwise += 1 }
        for _ in 0..<2 {
          poses = try PoseTriangulation.triangulate(
            clusters: clusters, people: people, cameras: cameras, skeleton: .coco17, triangulator: triangulator)
          guard let again = try PeopleAssociation.reassigned(clusters, poses: poses, people: people, cameras: cameras, options: options)
          else { break }
          clusters = again
        }
        if !correct(clusters) {
          wrong.reassigned += 1
          failures.append("separation \(separation) m, trial \(trial): \(clusters.map(\.members))")
        }
      }
    }
    // Measured: the pairwise association alone gets 4 of the 80 scenes wrong (people split into
    // two- and three-camera halves or mixed); with the re-assignment one remains — both people crossed
    // in both camera pairs, so that every cluster is a consistent wrong pair.
    XCTAssertGreaterThanOrEqual(wrong.pairwise, 3, "the scenes are hard enough to split the pairwise association")
    XCTAssertLessThanOrEqual(wrong.reassigned, 1, failures.joined(separator: "\n"))
  }
}
