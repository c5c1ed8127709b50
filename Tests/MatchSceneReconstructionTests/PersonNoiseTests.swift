@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Noise per person and camera: one person's near-exact keypoints set the cameras' pooled noise scale,
/// and another, noisier person's views must not be gated out by it.
final class PersonNoiseTests: XCTestCase {
  let cameras = fourRingCameras
  let both = [PersonCluster(members: [0: 0, 1: 0, 2: 0, 3: 0]), PersonCluster(members: [0: 1, 1: 1, 2: 1, 3: 1])]

  /// Per camera: person 0 projected exactly, person 1 with Gaussian noise of `sigma` px.
  func frame(_ f: Int, sigma: Double, rng: inout SeededGenerator) -> (truth: [[SIMD3<Double>]], people: [[PersonDetection2D]]) {
    let t = Double(f) / 20
    let truth = [standingFigure(at: SIMD3(-1 + 0.3 * cos(t), 0.2 * sin(t), 0)), standingFigure(at: SIMD3(1.1, -0.3 + 0.2 * t, 0))]
    let people = cameras.map { camera in
      truth.enumerated().map { p, joints in
        PersonDetection2D(keypoints: camera.project(joints).map { x in
          let s = p == 0 ? 0 : sigma
          return Keypoint2D(x: x!.x + s * rng.gaussian(), y: x!.y + s * rng.gaussian(), confidence: 0.9)
        })
      }
    }
    return (truth, people)
  }

  func testOnePersonsCleanPointsDoNotGateAnothersViews() throws {
    // The scales of the clean person (0.14 px, as one near-exact person sets them on a real two-person
    // trial): at 5 σ = 0.7 px the noisy person's 3 px views would fail the gate in most cameras.
    let triangulator = try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: [0.14, 0.14, 0.14, 0.14])
    var rng = SeededGenerator(seed: 11)
    var views = (clean: 0, noisy: 0), points = 0
    var error = 0.0
    for f in 0..<20 {
      let (truth, people) = frame(f, sigma: 3, rng: &rng)
      let poses = try PoseTriangulation.triangulate(
        clusters: both, people: people, cameras: cameras, skeleton: .coco17, triangulator: triangulator)
      XCTAssertEqual(poses.count, 2)
      for j in 0..<17 {
        let clean = try XCTUnwrap(poses[0].joints[j]), noisy = try XCTUnwrap(poses[1].joints[j])
        views.clean += clean.viewCount
        views.noisy += noisy.viewCount
        points += 1
        assertClose(clean.position, truth[0][j], absolute: 1e-6)
        error += length(noisy.position - truth[1][j])
      }
    }
    XCTAssertEqual(Double(views.clean) / Double(points), 4, "the clean person keeps every view")
    XCTAssertGreaterThan(Double(views.noisy) / Double(points), 3.5, "the noisy person keeps its views in its own noise units")
    XCTAssertLessThan(error / Double(points), 0.02, "and is triangulated from them to about its noise (3 px at ~4 m)")
  }

  func testPeopleWhoShareTheirCamerasNoiseKeepItsScale() throws {
    // Both people at 2 px, the cameras' scales 2 px: no person's scales are widened.
    let scales = [2.0, 2.0, 2.0, 2.0]
    let triangulator = try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: scales)
    var rng = SeededGenerator(seed: 3)
    for f in 0..<20 {
      var (_, people) = frame(f, sigma: 2, rng: &rng)
      // Person 0 at 2 px too.
      for c in people.indices {
        people[c][0].keypoints = people[c][0].keypoints.map {
          Keypoint2D(x: $0.x + 2 * rng.gaussian(), y: $0.y + 2 * rng.gaussian(), confidence: $0.confidence)
        }
      }
      let views = PoseTriangulation.views(clusters: both, people: people, cameras: 4)
      let observations = PoseTriangulation.observations(views, keypoints: 17, cameras: 4)
      let batch = try triangulator.triangulate(observations)
      let errors = PersonNoise.viewErrors(
        batch: batch, observations: observations, keypoints: 17, cameraScales: scales, options: triangulator.options)
      XCTAssertEqual(errors.count, 2)
      let widened = PersonNoise.scales(errors, cameraScales: scales)
      XCTAssertNil(widened[0], "frame \(f): \(widened)")
      XCTAssertNil(widened[1], "frame \(f): \(widened)")
    }
  }

  func testAPersonNoisierInMostCamerasIsWidenedNotOneBadCamera() {
    // 10 px errors (σ ≈ 7 px against the cameras' 1 px).
    let off = CameraNoise.ViewError(squared: 100, freedom: 2), fine = CameraNoise.ViewError(squared: 1, freedom: 2)
    func person(_ perCamera: [[CameraNoise.ViewError]]) -> [Double]? {
      PersonNoise.scales([perCamera], cameraScales: [1, 1, 1, 1])[0]
    }
    XCTAssertNil(person([Array(repeating: off, count: 7), Array(repeating: off, count: 7), Array(repeating: off, count: 7), []]), "too few views")
    XCTAssertNil(person([Array(repeating: off, count: 20), Array(repeating: off, count: 20), [], []]), "two cameras cannot tell")
    XCTAssertNil(
      person([Array(repeating: off, count: 20), Array(repeating: fine, count: 20), Array(repeating: fine, count: 20), []]),
      "one camera's wrong or mirrored detection does not widen the person")
    let widened = person([Array(repeating: off, count: 8), Array(repeating: off, count: 8), Array(repeating: fine, count: 8), []])
    let scales = try? XCTUnwrap(widened)
    XCTAssertGreaterThan(scales?[0] ?? 0, 5, "\(String(describing: scales))")
    XCTAssertEqual(scales?[0] ?? 0, scales?[3] ?? 0, accuracy: 1e-9, "a camera without views of its own takes the person's factor")
    XCTAssertEqual(scales?[2] ?? 0, 1, accuracy: 0.3, "a camera where the person is as precise as the others keeps its scale")
  }
}
