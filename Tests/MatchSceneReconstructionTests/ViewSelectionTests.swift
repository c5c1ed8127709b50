@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Adaptive view selection on constructed scenes with known truth: per-camera noise scales
/// estimated from the data, views gated and weighed in noise units, the largest consistent view set.
final class ViewSelectionTests: XCTestCase {
  let cameras = fourRingCameras

  func figure(at root: SIMD3<Double>) -> [SIMD3<Double>] { standingFigure(at: root) }

  /// One person's detection in `camera`: projections plus Gaussian noise of `sigma` px and `offset`.
  func detection(
    _ joints: [SIMD3<Double>], in camera: Camera, sigma: Double, offset: SIMD2<Double> = .zero, rng: inout SeededGenerator
  ) -> PersonDetection2D {
    PersonDetection2D(keypoints: camera.project(joints).map { p in
      Keypoint2D(x: p!.x + offset.x + sigma * rng.gaussian(), y: p!.y + offset.y + sigma * rng.gaussian(), confidence: 0.9)
    })
  }

  /// Frames of one person walking about, every camera seeing it with its own noise.
  func frames(sigmas: [Double], offsets: [SIMD2<Double>]? = nil, count: Int = 120, seed: UInt64 = 5)
    -> (truth: [[SIMD3<Double>]], people: [[[PersonDetection2D]]])
  {
    var rng = SeededGenerator(seed: seed)
    var truth: [[SIMD3<Double>]] = [], people: [[[PersonDetection2D]]] = []
    for f in 0..<count {
      let t = Double(f) / Double(count)
      let joints = figure(at: SIMD3(1.2 * cos(6 * t), 0.8 * sin(6 * t), 0))
      truth.append(joints)
      people.append(cameras.indices.map { c in
        [detection(joints, in: cameras[c], sigma: sigmas[c], offset: offsets?[c] ?? .zero, rng: &rng)]
      })
    }
    return (truth, people)
  }

  let everyCamera = [PersonCluster(members: [0: 0, 1: 0, 2: 0, 3: 0])]

  /// The Reconstructor's estimation loop (`Reconstructor.viewSelection`) on these frames.
  func estimatedScales(_ people: [[[PersonDetection2D]]], iterations: Int = 3) throws -> [Double] {
    var triangulator = try Triangulator(cameras: cameras, options: .robust)
    var scales: [Double] = []
    for _ in 0..<iterations {
      var errors = Array(repeating: [CameraNoise.ViewError](), count: cameras.count)
      for frame in people {
        let e = try PoseTriangulation.correctedSquaredErrors(
          clusters: everyCamera, people: frame, cameras: cameras, keypoints: 17, triangulator: triangulator)
        for c in errors.indices { errors[c] += e[c] }
      }
      scales = try XCTUnwrap(CameraNoise.scales(views: errors))
      triangulator = try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: scales)
    }
    return scales
  }

  func testEachCamerasNoiseScaleIsRecoveredFromTheData() throws {
    // Three rounds, as the Reconstructor runs: the noisier cameras within 5 %, the two most precise
    // ones (whose points the others still pull) within 30 %, in the right order.
    let sigmas = [1.0, 2.0, 4.0, 8.0]
    let scales = try estimatedScales(frames(sigmas: sigmas).people)
    for c in 2..<4 { XCTAssertEqual(scales[c], sigmas[c], accuracy: 0.05 * sigmas[c], "camera \(c + 1): \(scales)") }
    for c in 0..<2 { XCTAssertEqual(scales[c], sigmas[c], accuracy: 0.3 * sigmas[c], "camera \(c + 1): \(scales)") }
    XCTAssertEqual(scales, scales.sorted(), "\(scales)")
  }

  func testAPreciseCameraIsToldApartFromNoisyOnes() throws {
    // One camera four times as precise as the rest: the estimate stays conservative (it over-states
    // the precise camera's noise while the noisy ones still move the points) but sets it well apart.
    let sigmas = [0.5, 6.0, 6.0, 6.0]
    let scales = try estimatedScales(frames(sigmas: sigmas).people)
    for c in 1..<4 { XCTAssertEqual(scales[c], 6, accuracy: 0.6, "\(scales)") }
    XCTAssertLessThan(scales[0], 2, "\(scales)")
  }

  func testAnOffCameraIsWeighedDownNotThrownOut() throws {
    // cam3's calibration is off: a systematic 21 px offset on top of 1 px noise. The fixed 8 px gate
    // drops it from most points; in noise units it stays in, weighed down, and the points stay as good.
    let offsets: [SIMD2<Double>] = [.zero, .zero, SIMD2(16, 14), .zero]
    let (truth, people) = frames(sigmas: [1, 1, 1, 1], offsets: offsets)
    let scales = try estimatedScales(people)
    XCTAssertGreaterThan(scales[2], 4 * scales[0], "\(scales)")
    let fixed = try Triangulator(cameras: cameras, options: .robust)
    let scaled = try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: scales)
    var used = (fixed: 0, scaled: 0, total: 0)
    var error = (fixed: 0.0, scaled: 0.0)
    for (f, frame) in people.enumerated() {
      for (triangulator, isScaled) in [(fixed, false), (scaled, true)] {
        let poses = try PoseTriangulation.triangulate(
          clusters: everyCamera, people: frame, cameras: cameras, skeleton: .coco17, triangulator: triangulator)
        for j in 0..<17 {
          let e = length(try XCTUnwrap(poses[0].joints[j]).position - truth[f][j])
          let cam3 = poses[0].viewErrors[j * poses[0].cameraCount + 2]?.used == true ? 1 : 0
          if isScaled { error.scaled += e; used.scaled += cam3 } else { error.fixed += e; used.fixed += cam3; used.total += 1 }
        }
      }
    }
    XCTAssertLessThan(Double(used.fixed), 0.5 * Double(used.total), "the fixed gate drops cam3 from most points")
    XCTAssertGreaterThan(Double(used.scaled), 0.95 * Double(used.total), "in noise units cam3 stays in")
    XCTAssertLessThan(error.scaled, 1.05 * error.fixed, "weighed down, it does not pull the points off")
  }

  func testTheLargestConsistentViewSetIsKept() throws {
    // Five cameras: four around the scene see the point exactly, one sees a wrong detection 40 px off.
    // The four that agree are kept (not a pair), the point exact.
    let five = cameras + [Camera.lookingAt(
      SIMD3(0, 0, 0.9), from: SIMD3(0.5, -4.5, 2.0), name: "cam5", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400)]
    let point = SIMD3(0.3, -0.2, 1.1)
    var views = five.map { Keypoint2D(x: $0.project(point)!.x, y: $0.project(point)!.y, confidence: 0.9) }
    views[1].x += 40
    let triangulator = try Triangulator(cameras: five, options: .robust, noiseScalesPx: [1.5, 1.5, 1.5, 1.5, 1.5])
    let batch = try triangulator.triangulate(views)
    let result = try XCTUnwrap(batch.point(0))
    XCTAssertEqual((0..<5).map { batch.isUsed(point: 0, camera: $0) }, [true, false, true, true, true])
    assertClose(result.position, point, absolute: 1e-6)
    // The same views in noise units of 20 px for camera 2: 40 px is two of its noise scales, so it stays.
    let wide = try Triangulator(cameras: five, options: .robust, noiseScalesPx: [1.5, 20, 1.5, 1.5, 1.5]).triangulate(views)
    XCTAssertTrue(wide.isUsed(point: 0, camera: 1))
    XCTAssertLessThan(length(try XCTUnwrap(wide.point(0)).position - point), 0.01, "weighed down by 1/20")
  }

  func testNoiseScalesMustFitTheCameras() {
    XCTAssertThrowsError(try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: [1, 1, 1]))
    XCTAssertThrowsError(try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: [1, 0, 1, 1]))
    XCTAssertThrowsError(try Triangulator(cameras: cameras, options: .robust, noiseScalesPx: [1, .nan, 1, 1]))
    XCTAssertNil(CameraNoise.scales(views: [[.init(squared: 1, freedom: 2)], []]), "too few views to estimate anything")
  }
}
