import MatchSceneCore
import MatchSceneGeometry
import MatchSceneReconstruction
import XCTest

/// Every camera's pose refined jointly on points the cameras see, the table's corners holding the venue
/// frame and scale (`PlayerPoseRefinement.adjust`), on generated rigs.
final class PlayerPoseRefinementTests: XCTestCase {
  let corners = [SIMD3(-1.37, -0.7625, 0.76), SIMD3(1.37, -0.7625, 0.76), SIMD3(1.37, 0.7625, 0.76), SIMD3(-1.37, 0.7625, 0.76)]

  func truth() -> [Camera] {
    [SIMD3(1, -6, 3), SIMD3(-5, 4, 2.5), SIMD3(6, 1, 3.5), SIMD3(-4, -4, 2.8)].enumerated().map { i, eye in
      Camera.lookingAt(
        SIMD3(0, 0, 0.76), from: eye, name: "cam\(i + 1)", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400,
        distortion: [-0.1, 0.05, 0, 0, 0])
    }
  }

  /// Points where players move (a deterministic spread over 5 × 3 × 1.8 m) and their exact images.
  func scene(_ cameras: [Camera]) -> (points: [SIMD3<Double>], observations: [CalibrationObservation]) {
    var points: [SIMD3<Double>] = []
    var observations: [CalibrationObservation] = []
    for k in 0..<400 {
      let u = Double(k)
      let p = SIMD3(2.5 * sin(u * 0.37), 1.5 * cos(u * 0.61), 0.1 + 0.85 * (1 + sin(u * 0.23)))
      for (c, camera) in cameras.enumerated() {
        guard let pixel = camera.project(p) else { continue }
        observations.append(CalibrationObservation(camera: c, point: points.count, pixel: pixel, weight: 1))
      }
      points.append(p)
    }
    return (points, observations)
  }

  func anchors(_ cameras: [Camera]) -> [PlayerPoseRefinement.Anchor] {
    corners.map { corner in
      .init(world: corner, clicks: cameras.enumerated().map { .init(camera: $0.offset, pixel: $0.element.project(corner)!) })
    }
  }

  func angleDegrees(_ a: Camera, _ b: Camera) -> Double {
    length((a.camFromWorld.rotation * b.camFromWorld.rotation.transposed).rodriguesVector) * 180 / .pi
  }

  /// The rig scaled, turned and shifted as a whole, each camera then a few centimetres and tenths of a
  /// degree off on its own: the adjustment makes the rig consistent, the corners put it back.
  func testAPerturbedRigComesBackToTheVenueFrameAndScale() throws {
    let cameras = truth()
    let (points, observations) = scene(cameras)
    let wrong = Similarity3(scale: 1.03, rotation: .rodrigues(SIMD3(0.01, -0.008, 0.02)), translation: SIMD3(0.05, -0.03, 0.02))
    var start = cameras.map { wrong.apply($0) }
    for i in start.indices {
      let turn = Matrix3.rodrigues(SIMD3(0.004, -0.003, 0.005) * Double(i + 1) / 4)
      start[i].camFromWorld = RigidTransform(
        rotation: turn * start[i].camFromWorld.rotation, translation: start[i].camFromWorld.translation + SIMD3(0.03, -0.02, 0.04))
    }
    let outcome = try XCTUnwrap(
      PlayerPoseRefinement.adjust(cameras: start, points: points.map { wrong.apply($0) }, observations: observations, anchors: anchors(cameras)))
    XCTAssertEqual(outcome.keypointObservations, observations.count)
    for (refined, camera) in zip(outcome.cameras, cameras) {
      XCTAssertLessThan(length(refined.center - camera.center), 1e-4, camera.name)
      XCTAssertLessThan(angleDegrees(refined, camera), 1e-3, camera.name)
    }
    XCTAssertLessThan(outcome.anchorResidualsM.max()!, 1e-5)
    // The adjustment keeps the distance between two of the perturbed cameras: about the rig's 3 % too large.
    XCTAssertEqual(1 / outcome.alignment.scale, 1.03, accuracy: 0.02)
  }

  /// Anchors on one line fix no similarity.
  func testAnchorsOnALineAreRefused() throws {
    let cameras = truth()
    let (points, observations) = scene(cameras)
    let line = [SIMD3(-1.37, 0, 0.76), SIMD3(0, 0, 0.76), SIMD3(1.37, 0, 0.76)].map { p in
      PlayerPoseRefinement.Anchor(world: p, clicks: cameras.enumerated().map { .init(camera: $0.offset, pixel: $0.element.project(p)!) })
    }
    XCTAssertNil(try PlayerPoseRefinement.adjust(cameras: cameras, points: points, observations: observations, anchors: line))
  }
}
