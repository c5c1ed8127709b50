import MatchSceneCore
import MatchSceneReconstruction
import XCTest

/// `FloorContact` on generated motion: people standing on the floor, on a raised platform, in a pit,
/// and walking on a running treadmill, with 1 cm of position noise (a far, two-view person's jitter).
final class FloorContactTests: XCTestCase {
  let fps = 60.0
  let frames = 0...119

  /// A person whose sole keypoints follow `foot(side, frame)` (the sole's lowest point; the heel
  /// 2 cm above it, the toes 12 cm ahead), every other joint 0.8 m above the left foot.
  func person(
    _ id: String, skeleton: Skeleton, rng: inout SeededGenerator, noise: Double = 0.01,
    foot: (Int, Int) -> SIMD3<Double>
  ) -> MotionTrack {
    var track = MotionTrack(id: id, kind: .person, jointCount: skeleton.count, frames: frames)
    let roles: [(JointRole, Int, SIMD3<Double>)] = [
      (.leftHeel, 0, SIMD3(0, 0, 0.02)), (.leftBigToe, 0, SIMD3(0.12, 0.02, 0)), (.leftSmallToe, 0, SIMD3(0.11, -0.03, 0.005)),
      (.rightHeel, 1, SIMD3(0, 0, 0.02)), (.rightBigToe, 1, SIMD3(0.12, -0.02, 0)), (.rightSmallToe, 1, SIMD3(0.11, 0.03, 0.005)),
    ]
    let soles = roles.map { (skeleton.index(of: $0.0)!, $0.1, $0.2) }
    for f in frames {
      for j in 0..<skeleton.count {
        var p = foot(0, f) + SIMD3(0, 0, 0.8)
        if let r = soles.first(where: { $0.0 == j }) { p = foot(r.1, f) + r.2 }
        p += noise * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
        track[joint: j, frame: f] = MotionSample(position: p, reprojectionPx: 1, views: 2, state: .measured)
      }
    }
    return track
  }

  func scene(_ people: [(String, (Int, Int) -> SIMD3<Double>)]) -> MotionModel {
    var rng = SeededGenerator(seed: 7)
    let skeleton = Skeleton.body25b
    return MotionModel(
      fps: fps, skeleton: skeleton, frames: frames,
      tracks: people.map { person($0.0, skeleton: skeleton, rng: &rng, foot: $0.1) })
  }

  /// Standing still at (x, y, height), the feet 0.25 m apart.
  func standing(_ x: Double, _ y: Double, _ height: Double) -> (Int, Int) -> SIMD3<Double> {
    { side, _ in SIMD3(x, y + (side == 0 ? 0.125 : -0.125), height) }
  }

  /// On one leg at `height` (a platform), the other foot swinging 0.4 m back and forth at 1 Hz, 10 cm up.
  func kicking(_ x: Double, _ y: Double, _ height: Double) -> (Int, Int) -> SIMD3<Double> {
    { side, f in
      let phase = 2 * Double.pi * Double(f) / 60
      return side == 0 ? SIMD3(x, y + 0.125, height) : SIMD3(x + 0.4 * sin(phase), y - 0.125, height + 0.05 + 0.05 * cos(phase))
    }
  }

  /// Walking at 1 m/s on a treadmill belt 0.2 m up: each foot in stance travels back with the belt
  /// (0.6 s), then swings forward (0.4 s).
  func treadmill(_ x: Double, _ y: Double) -> (Int, Int) -> SIMD3<Double> {
    { side, f in
      let t = (Double(f) / 60 + (side == 0 ? 0 : 0.5)).truncatingRemainder(dividingBy: 1)
      let along = t < 0.6 ? 0.3 - t : -0.3 + 0.6 * (t - 0.6) / 0.4
      let lift = t < 0.6 ? 0 : 0.1 * sin(Double.pi * (t - 0.6) / 0.4)
      return SIMD3(x + along, y + (side == 0 ? 0.125 : -0.125), 0.2 + lift)
    }
  }

  func testStandingPeopleGiveTheirSoleHeightAndATreadmillWalkerNone() throws {
    let motion = scene([("B1", standing(-4, 0.5, -0.12)), ("P1", kicking(-1, 0, 0.15)), ("P2", treadmill(1, 0))])
    let contacts = FloorContact.find(in: motion)
    XCTAssertEqual(contacts.map(\.track), ["B1", "P1"], "the treadmill walker's feet never rest")
    let b = try XCTUnwrap(contacts.first { $0.track == "B1" })
    let p = try XCTUnwrap(contacts.first { $0.track == "P1" })
    // The lowest of three noisy sole keypoints sits a little below the sole: within 1.5 cm.
    XCTAssertEqual(b.position.z, -0.12, accuracy: 0.015)
    XCTAssertEqual(p.position.z, 0.15, accuracy: 0.015)
    // Heel or toes, whichever is lowest in a frame: between x = −4 and −3.88.
    XCTAssertEqual(b.position.x, -3.94, accuracy: 0.08)
    XCTAssertGreaterThan(b.footFrames, 2 * p.footFrames - 40, "both of the bystander's feet rest, one of the kicker's")
    XCTAssertLessThan(b.heightSpread, 0.02)
  }

  func testTheFloorIsTheLargestGroupAtOneHeightThenTheLowest() {
    // Two on the floor beat one in a pit below it.
    let motion = scene([
      ("B1", standing(-4, 0.5, 0.0)), ("B2", standing(3, -2, 0.02)), ("B3", standing(0, 3, -0.3)), ("P1", kicking(-1, 0, 0.2)),
    ])
    let floor = FloorContact.floorGroup(FloorContact.find(in: motion))
    XCTAssertEqual(Set(floor.map(\.track)), ["B1", "B2"])
    // One on the floor, one on a platform: the platform stands on the floor, not under it.
    let two = FloorContact.floorGroup(FloorContact.find(in: scene([("P1", kicking(-1, 0, 0.2)), ("B1", standing(-4, 0.5, -0.1))])))
    XCTAssertEqual(two.map(\.track), ["B1"])
  }

  func testNoContactsWithoutSoleKeypointsOrRestingFeet() {
    var motion = scene([("B1", standing(-4, 0.5, 0))])
    motion.skeleton = .coco17
    XCTAssertEqual(FloorContact.find(in: motion), [], "ankles only: the sole's height is unknown")
    XCTAssertEqual(FloorContact.find(in: scene([("P2", treadmill(1, 0))])), [])
    XCTAssertEqual(FloorContact.floorGroup([]), [])
  }
}
