@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import XCTest

/// The centre that tracking follows stays with the body when one torso joint is an outlier, so a
/// player's track is not thrown off and handed to a bystander (seed 4 at 2× noise).
final class RobustCentreTests: XCTestCase {
  let skeleton = Skeleton.coco17
  let fps = 60.0

  /// A standing person facing +x at ground place (x, y): COCO-17 joints at plausible heights, metres.
  func pose(x: Double, y: Double, outlierHip: SIMD3<Double>? = nil) -> Pose3D {
    var joints = [TriangulatedPoint?](repeating: nil, count: skeleton.count)
    func set(_ name: String, _ dy: Double, _ z: Double) {
      joints[skeleton.index(of: name)!] = TriangulatedPoint(position: SIMD3(x, y + dy, z), meanReprojectionPx: 1, viewCount: 4)
    }
    set("nose", 0, 1.60)
    for (side, s) in [("left", 1.0), ("right", -1.0)] {
      set("\(side)_eye", 0.03 * s, 1.63); set("\(side)_ear", 0.07 * s, 1.61)
      set("\(side)_shoulder", 0.20 * s, 1.42); set("\(side)_elbow", 0.25 * s, 1.12); set("\(side)_wrist", 0.27 * s, 0.86)
      set("\(side)_hip", 0.14 * s, 0.95); set("\(side)_knee", 0.14 * s, 0.52); set("\(side)_ankle", 0.14 * s, 0.08)
    }
    if let outlierHip { joints[skeleton.index(of: "left_hip")!]!.position = outlierHip }
    return Pose3D(joints: joints, cameras: [0, 1, 2, 3])
  }

  /// One torso joint triangulated off the body (a keypoint on the wrong body part) moves the centre
  /// by at most half the torso's extent (shoulders ±0.20 m here), however far off it lies; the mean
  /// of the four torso joints would move by a quarter of the outlier's distance (0.30 m, then 0.75 m).
  func testOneOutlyingTorsoJointMovesTheCentreByAtMostHalfTheTorso() throws {
    let up = SIMD3<Double>(0, 0, 1)
    let clean = try XCTUnwrap(pose(x: -2, y: 0).centre(torso: skeleton.torso))
    XCTAssertEqual(clean.z, (1.42 + 0.95) / 2, accuracy: 1e-9, "shoulders and hips weigh equally")
    for offset in [1.2, 3.0] {
      let outlier = try XCTUnwrap(pose(x: -2, y: 0, outlierHip: SIMD3(-2, -offset, 0.3)).centre(torso: skeleton.torso))
      XCTAssertLessThanOrEqual(IdentityTracker.groundDistance(clean, outlier, up: up), 0.20 + 1e-9, "outlier \(offset) m")
      XCTAssertLessThan(abs(clean.z - outlier.z), 0.25, "outlier \(offset) m")
    }
  }

  /// A player standing still, a bystander of the same proportions (at 2× noise two adults' limbs agree
  /// within a centimetre) lost for a second 3.5 m away: one frame whose hip is an outlier, then clean
  /// frames. The player keeps his own id throughout, the bystander's track takes no one.
  func testAnOutlyingJointDoesNotHandThePlayerToALostBystander() throws {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions(), up: SIMD3(0, 0, 1))
    let limbs = Pose3D.signatureLimbs(skeleton)
    func step(_ f: Int, _ poses: [Pose3D]) -> [Int?] {
      tracker.assign(
        frame: f, centres: poses.map { $0.centre(torso: skeleton.torso) }, limbs: poses.map { $0.limbLengths(limbs) },
        canStartTrack: poses.map { _ in true })
    }
    var player: Int?
    for f in 0..<120 { player = step(f, [pose(x: -2, y: 0), pose(x: -2.3, y: 3.5)])[0] }
    for f in 120..<180 { XCTAssertEqual(step(f, [pose(x: -2, y: 0)])[0], player) }
    XCTAssertEqual(step(180, [pose(x: -2, y: 0, outlierHip: SIMD3(-2, -1.2, 0.3))])[0], player, "frame 180")
    for f in 181..<200 { XCTAssertEqual(step(f, [pose(x: -2, y: 0)])[0], player, "frame \(f)") }
  }
}
