import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// The gauge of a bundle adjustment: refinement must not translate, turn or scale the
/// world. A rig whose every camera is slightly off (as a real calibration is) and one of which is
/// knocked: with the automatic gauge alone the world follows the reference camera's own error; with
/// `holdWorldFrame` the refined rig is put back onto the given one and venue points reconstruct where
/// they truly are.
final class WorldFrameGaugeTests: XCTestCase {
  typealias Rig = CalibrationRefinementTests

  /// Horn's closed form recovers a known similarity exactly, and a camera moved with the world sees
  /// every moved point where it saw the point before.
  func testSimilarityFitIsExact() throws {
    var rng = SeededGenerator(seed: 5)
    let truth = Similarity3(
      scale: 1.07, rotation: Matrix3.rodrigues(normalize(SIMD3(0.2, -0.5, 0.9)) * 0.3), translation: SIMD3(0.4, -1.2, 0.05))
    let source = (0..<20).map { _ in SIMD3(rng.uniform(-3...3), rng.uniform(-3...3), rng.uniform(0...3)) }
    let fitted = try XCTUnwrap(Similarity3.fit(from: source, to: source.map(truth.apply)))
    assertClose(fitted.scale, truth.scale, absolute: 1e-12)
    XCTAssertLessThan(length((fitted.rotation * truth.rotation.transposed).rodriguesVector), 1e-12)
    XCTAssertLessThan(length(fitted.translation - truth.translation), 1e-12)

    let camera = Rig.tableTennisRig()[0]
    let moved = truth.apply(camera)
    for p in source {
      guard let before = camera.project(p), let after = moved.project(truth.apply(p)) else { continue }
      XCTAssertLessThan(((before - after) * (before - after)).sum().squareRoot(), 1e-9)
    }
    // Degenerate: too few pairs, or every point at one place.
    XCTAssertNil(Similarity3.fit(from: Array(source.prefix(2)), to: Array(source.prefix(2))))
    XCTAssertNil(Similarity3.fit(from: Array(repeating: source[0], count: 5), to: Array(repeating: source[1], count: 5)))
  }

  /// Every camera off by 0.05° and 5 mm (a good calibration), camera 3 knocked by 1° and 3 cm; 1 px
  /// noise, 3 % outliers. Refined with the automatic gauge: held to the given frame, table corners and
  /// floor points triangulate within 4 mm of the truth (about what the given rig itself achieves); left
  /// to the reference camera, the world is off by more.
  func testRefinementKeepsTheWorldFrame() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    let scene = Rig.makeScene(pointCount: 2000, seed: 4)
    var rng = SeededGenerator(seed: 44)
    var given = scene.truth.map { Rig.knock($0, degrees: 0.05, metres: 0.005, rng: &rng) }
    given[scene.perturbed] = Rig.knock(scene.truth[scene.perturbed], degrees: 1, metres: 0.03, rng: &rng)
    let (points, observations) = try Rig.triangulate(scene, cameras: given)

    func venueError(_ cameras: [Camera]) throws -> (mean: Double, max: Double) {
      // Table corners at 0.76 m and a floor grid, seen noise-free by the true cameras.
      var venue: [SIMD3<Double>] = [SIMD3(1.37, 0.7625, 0.76), SIMD3(-1.37, 0.7625, 0.76), SIMD3(1.37, -0.7625, 0.76), SIMD3(-1.37, -0.7625, 0.76)]
      for x in stride(from: -3.0, through: 3.0, by: 1.5) { for y in stride(from: -2.0, through: 2.0, by: 2.0) { venue.append(SIMD3(x, y, 0)) } }
      let keypoints = venue.flatMap { p in
        scene.truth.map { c in c.project(p).map { Keypoint2D(x: $0.x, y: $0.y, confidence: 1) } ?? .missing }
      }
      let batch = try Triangulator(cameras: cameras, options: .init()).triangulate(keypoints)
      let errors = venue.indices.compactMap { i in batch.point(i).map { length($0.position - venue[i]) } }
      XCTAssertEqual(errors.count, venue.count)
      return (errors.reduce(0, +) / Double(errors.count), errors.max() ?? .infinity)
    }

    var options = CalibrationRefinementOptions()
    options.worldAnchors = Set(scene.truth.indices.filter { $0 != scene.perturbed })
    let drifting = try CalibrationRefinement.refine(cameras: given, points: points, observations: observations, options: options)
    options.holdWorldFrame = true
    let held = try CalibrationRefinement.refine(cameras: given, points: points, observations: observations, options: options)
    XCTAssertNil(drifting.worldAlignment)
    options.worldFrameAnchor = .points
    let byPoints = try venueError(
      CalibrationRefinement.refine(cameras: given, points: points, observations: observations, options: options).cameras)
    options.worldFrameAnchor = .cameras
    print("held by the points: mean \(byPoints.mean * 1000) max \(byPoints.max * 1000) mm")
    let alignment = try XCTUnwrap(held.worldAlignment)

    let before = try venueError(given)
    let loose = try venueError(drifting.cameras)
    let kept = try venueError(held.cameras)
    print(
      "venue points: given rig mean \(before.mean * 1000) mm; refined, reference-camera gauge mean \(loose.mean * 1000) max \(loose.max * 1000) mm; "
        + "world frame held mean \(kept.mean * 1000) max \(kept.max * 1000) mm (alignment scale \(alignment.scale))")
    XCTAssertLessThan(kept.mean, 0.004, "venue points within 4 mm of the truth on average")
    XCTAssertLessThan(kept.max, 0.008)
    XCTAssertLessThan(kept.mean, loose.mean, "holding the frame beats the reference camera's gauge")
    XCTAssertLessThan(kept.mean, before.mean, "and the knocked camera no longer spoils the venue")
    // Held by the given points instead, the knocked camera's offset (in those points) stays in the frame.
    XCTAssertGreaterThan(byPoints.mean, 5 * kept.mean)
    assertClose(alignment.scale, 1, absolute: 0.005)
    // The knocked camera still comes back.
    let error = Rig.poseError(held.cameras[scene.perturbed], scene.truth[scene.perturbed])
    XCTAssertLessThan(error.degrees, 0.1)
    XCTAssertLessThan(error.metres, 0.01)
    // The refined points moved with the cameras: they still fit them (median residual near the noise).
    XCTAssertLessThan(held.corrections[scene.perturbed].after.medianPx, 2)
  }
}
