import MatchSceneCore
import MatchSceneGeometry
import XCTest

/// `FloorLevelling` on a generated rig whose world frame is tilted 1.5° and sunk 0.1 m against the
/// floor (a calibration fitted to one corner of the venue).
final class FloorLevellingTests: XCTestCase {
  let cameras = (0..<4).map { i -> Camera in
    let a = Double(i) * Double.pi / 2 + 0.3
    return Camera.lookingAt(
      SIMD3(0, 0, 1), from: SIMD3(5 * cos(a), 5 * sin(a), 2), name: "cam\(i)", imageSize: ImageSize(width: 1920, height: 1080),
      focalPx: 1700)
  }
  /// worldFromFloor: the true floor (z = 0 in it) as the tilted world sees it.
  let worldFromFloor = RigidTransform(rotation: .rodrigues(SIMD3(1.0, 0.5, 0) / 1.118 * 1.5 * Double.pi / 180), translation: SIMD3(0, 0, -0.1))

  func testThreeContactsLevelTheFloorExactlyAndNoProjectionChanges() throws {
    let onFloor = [SIMD3<Double>(-4, 0.5, 0), SIMD3(3, -2, 0), SIMD3(0.5, 3.5, 0)].map { worldFromFloor.apply($0) }
    XCTAssertGreaterThan(onFloor.map { abs($0.z) }.max()!, 0.15, "the floor is off by more than 15 cm somewhere")
    let level = try XCTUnwrap(
      FloorLevelling.transform(contacts: onFloor, weights: [1, 1, 1], anchors: FloorLevelling.anchors(cameras, lever: 5)))
    for p in onFloor { XCTAssertEqual(level.apply(p).z, 0, accuracy: 0.001) }
    // The floor's normal is the new z axis: the tilt is recovered within 0.02°.
    let up = level.rotation * worldFromFloor.rotation.transposed.row(2)
    XCTAssertLessThan(acos(min(1, up.z)) * 180 / .pi, 0.02)
    // A gauge change: every point projects where it did, through the moved camera.
    let move = Similarity3(scale: 1, rotation: level.rotation, translation: level.translation)
    for camera in cameras {
      let moved = move.apply(camera)
      for x in [SIMD3<Double>(0.3, -0.2, 1.1), SIMD3(-1, 1, 0.2)] {
        let a = try XCTUnwrap(camera.project(x)), b = try XCTUnwrap(moved.project(level.apply(x)))
        XCTAssertLessThan(abs(a.x - b.x) + abs(a.y - b.y), 1e-6)
      }
    }
  }

  func testOneContactIsMetWithTheLeastMoveOfTheCameras() throws {
    let contact = worldFromFloor.apply(SIMD3(-4, 0.5, 0))
    let anchors = FloorLevelling.anchors(cameras, lever: 5)
    let level = try XCTUnwrap(FloorLevelling.transform(contacts: [contact], weights: [3], anchors: anchors))
    XCTAssertEqual(level.apply(contact).z, 0, accuracy: 0.001)
    // No more displacement of the anchors than the plain lift that also meets it.
    let moved = anchors.map { length(level.apply($0) - $0) }.reduce(0) { $0 + $1 * $1 }
    let lift = Double(anchors.count) * contact.z * contact.z
    XCTAssertLessThan(moved, lift)
    XCTAssertEqual(level.rotation.row(2).z, 1, accuracy: 1e-3, "a tilt of a degree or two, not a turn")
  }

  func testDegenerateInputs() {
    let anchors = FloorLevelling.anchors(cameras, lever: 5)
    XCTAssertNil(FloorLevelling.transform(contacts: [], weights: [], anchors: anchors))
    XCTAssertNil(FloorLevelling.transform(contacts: [.zero], weights: [0], anchors: anchors))
    XCTAssertNil(FloorLevelling.transform(contacts: [.zero], weights: [1, 1], anchors: anchors))
    XCTAssertNil(FloorLevelling.transform(contacts: [.zero], weights: [1], anchors: [.zero]))
    // Contacts already on z = 0: nothing moves.
    let still = FloorLevelling.transform(contacts: [SIMD3(1, 2, 0), SIMD3(-3, 0, 0), SIMD3(0, -2, 0)], weights: [1, 1, 1], anchors: anchors)
    XCTAssertEqual(still.map { length($0.translation) } ?? 1, 0, accuracy: 1e-9)
  }
}
