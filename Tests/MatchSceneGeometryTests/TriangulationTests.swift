import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

final class TriangulationTests: XCTestCase {
  /// Observations of `points` in every camera (point-major), noise-free.
  func observe(_ points: [SIMD3<Double>], _ cameras: [Camera]) -> [Keypoint2D] {
    var out: [Keypoint2D] = []
    let pixels = cameras.map { $0.project(points) }
    for p in 0..<points.count {
      for c in 0..<cameras.count {
        let px = pixels[c][p]!
        out.append(Keypoint2D(x: px.x, y: px.y, confidence: 0.9))
      }
    }
    return out
  }

  func testNoiseFreePointsTriangulateWithin1e9Relative() throws {
    let cameras = ringCameras()
    let points = volumePoints(500)
    for options in [TriangulationOptions(), .robust] {
      let batch = try Triangulator(cameras: cameras, options: options).triangulate(observe(points, cameras))
      for (i, truth) in points.enumerated() {
        XCTAssertEqual(batch.status(i), .ok)
        assertClose(batch.position(i), truth, absolute: 1e-12, relative: 1e-9)
        XCTAssertLessThan(batch.meanReprojectionPx(i), 1e-6)
        XCTAssertEqual(batch.point(i)?.viewCount, 4)
      }
    }
  }

  func testLargeBatchUsesThreadsAndGivesTheSameAnswer() throws {
    let cameras = ringCameras(count: 8)
    let points = volumePoints(5000, seed: 3)
    let observations = observe(points, cameras)
    let triangulator = try Triangulator(cameras: cameras, options: .robust)
    let whole = try triangulator.triangulate(observations)
    let single = try triangulator.triangulate(Array(observations[(4321 * 8)..<(4322 * 8)]))
    XCTAssertEqual(whole.position(4321), single.position(0))
    for (i, truth) in points.enumerated() { assertClose(whole.position(i), truth, relative: 1e-9) }
  }

  func testOneViewIsTooFew() throws {
    let cameras = ringCameras()
    var obs = observe([SIMD3(0.1, 0.2, 1)], cameras)
    for c in 1..<4 { obs[c] = .missing }
    let result = try Triangulator(cameras: cameras).triangulate(point: obs)
    XCTAssertEqual(result, .failure(TriangulationFailure(status: .tooFewViews)))
  }

  func testLowConfidenceViewsAreIgnored() throws {
    let cameras = ringCameras()
    var obs = observe([SIMD3(0.1, 0.2, 1)], cameras)
    for c in 1..<4 { obs[c].confidence = 0.05 }
    let batch = try Triangulator(cameras: cameras).triangulate(obs)
    XCTAssertEqual(batch.status(0), .tooFewViews)
    XCTAssertEqual(batch.position(0), .zero)
  }

  func testParallelRaysAreDegenerateNotNaN() throws {
    // Two cameras side by side looking the same way; both see their own principal point, so the rays
    // are parallel and never meet.
    let a = Camera.lookingAt(
      SIMD3(0, 10, 1), from: SIMD3(0, 0, 1), name: "a", imageSize: ImageSize(width: 1000, height: 1000), focalPx: 1000)
    let b = Camera.lookingAt(
      SIMD3(1, 10, 1), from: SIMD3(1, 0, 1), name: "b", imageSize: ImageSize(width: 1000, height: 1000), focalPx: 1000)
    let centre = Keypoint2D(x: 499.5, y: 499.5, confidence: 1)
    let batch = try Triangulator(cameras: [a, b]).triangulate([centre, centre])
    XCTAssertEqual(batch.status(0), .degenerate)
    XCTAssertTrue(batch.position(0).x.isFinite && batch.meanReprojectionPx(0) == -1)
    let robust = try Triangulator(cameras: [a, b], options: .robust).triangulate([centre, centre])
    XCTAssertEqual(robust.status(0), .degenerate)
  }

  func testPointBehindACameraFails() throws {
    // Two cameras 4 m apart, both looking along +y. Their rays diverge (a looks left, b right), so the
    // lines through them meet at (2, −10, 0): behind both cameras.
    let size = ImageSize(width: 1000, height: 1000)
    let a = Camera.lookingAt(SIMD3(0, 10, 0), from: SIMD3(0, 0, 0), name: "a", imageSize: size, focalPx: 1000)
    let b = Camera.lookingAt(SIMD3(4, 10, 0), from: SIMD3(4, 0, 0), name: "b", imageSize: size, focalPx: 1000)
    let obs = [Keypoint2D(x: 299.5, y: 499.5, confidence: 1), Keypoint2D(x: 699.5, y: 499.5, confidence: 1)]
    for options in [TriangulationOptions(), .robust] {
      let batch = try Triangulator(cameras: [a, b], options: options).triangulate(obs)
      XCTAssertEqual(batch.status(0), .behindCamera)
      XCTAssertEqual(batch.position(0), .zero)
    }
    // Sanity: the converging pair triangulates in front, at (2, 10, 0).
    let front = try Triangulator(cameras: [a, b]).triangulate(
      [Keypoint2D(x: 699.5, y: 499.5, confidence: 1), Keypoint2D(x: 299.5, y: 499.5, confidence: 1)])
    assertClose(front.position(0), SIMD3(2, 10, 0), absolute: 1e-9)
  }

  func testRobustModeRejectsAGrossOutlier() throws {
    let cameras = ringCameras()
    let truth = SIMD3<Double>(0.3, -0.2, 1.4)
    var obs = observe([truth], cameras)
    obs[2].x += 120  // a wrong keypoint in camera 3
    let plain = try Triangulator(cameras: cameras).triangulate(obs)
    XCTAssertGreaterThan(length(plain.position(0) - truth), 0.02)
    let robust = try Triangulator(cameras: cameras, options: .robust).triangulate(obs)
    XCTAssertEqual(robust.status(0), .ok)
    assertClose(robust.position(0), truth, absolute: 1e-9)
    XCTAssertEqual((0..<4).map { robust.isUsed(point: 0, camera: $0) }, [true, true, false, true])
    XCTAssertGreaterThan(robust.reprojectionPx(point: 0, camera: 2) ?? 0, 100)
  }

  func testInvalidCameraAndOptionsThrow() {
    var bad = ringCameras()[0]
    bad.fx = .nan
    XCTAssertThrowsError(try Triangulator(cameras: [bad]))
    var options = TriangulationOptions()
    options.minViews = 1
    XCTAssertThrowsError(try Triangulator(cameras: ringCameras(), options: options))
  }
}
