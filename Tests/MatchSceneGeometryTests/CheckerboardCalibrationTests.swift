import Foundation
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// Zhang's calibration through the OpenCV shim on checkerboard images of a known camera rendered in memory, and
/// a camera's pose from known points.
final class CheckerboardCalibrationTests: XCTestCase {
  func testRenderedBoardsGiveTheCamerasIntrinsics() throws {
    let synthetic = SyntheticCheckerboard()
    let board = Checkerboard(columns: synthetic.columns, rows: synthetic.rows, squareSize: synthetic.square)
    var views: [[SIMD2<Double>]] = []
    var size = ImageSize(width: 0, height: 0)
    for (k, pose) in SyntheticCheckerboard.views.enumerated() {
      let image = try XCTUnwrap(GreyImage(width: synthetic.width, height: synthetic.height, pixels: synthetic.render(pose)))
      guard case .found(let corners, let s) = board.detect(in: image) else { return XCTFail("view \(k): no board found") }
      // The detector's corners agree with the projection of the board (either end first).
      let truth = board.objectPoints.map { synthetic.project($0.x, $0.y, pose: pose) }
      let forward = zip(corners, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
      let backward = zip(corners, truth.reversed()).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
      XCTAssertLessThan(min(forward, backward), 0.3, "view \(k): corners off by \(min(forward, backward)) px")
      views.append(corners)
      size = s
    }
    XCTAssertEqual(size, ImageSize(width: synthetic.width, height: synthetic.height))
    let result = try XCTUnwrap(
      ZhangCalibration.calibrate(name: "cam", target: board.objectPoints, views: views, imageSize: size, distortionTerms: 4))
    XCTAssertEqual(result.camera.fx, synthetic.fx, accuracy: synthetic.fx * 0.005)
    XCTAssertEqual(result.camera.fy, synthetic.fy, accuracy: synthetic.fy * 0.005)
    XCTAssertEqual(result.camera.cx, synthetic.cx, accuracy: 2)
    XCTAssertEqual(result.camera.cy, synthetic.cy, accuracy: 2)
    XCTAssertLessThan(result.rmsPx, 0.2)
    XCTAssertEqual(result.viewRMSPx.count, views.count)
  }

  func testBlurredImages() throws {
    let synthetic = SyntheticCheckerboard()
    let board = Checkerboard(columns: synthetic.columns, rows: synthetic.rows, squareSize: synthetic.square)
    func image(blur: Int) throws -> GreyImage {
      try XCTUnwrap(
        GreyImage(width: synthetic.width, height: synthetic.height, pixels: synthetic.render(SyntheticCheckerboard.views[0], blur: blur)))
    }
    let blurred = try image(blur: 30), sharp = try image(blur: 0)
    guard case .notFound(let size) = board.detect(in: blurred) else { return XCTFail("a board found in a blurred image") }
    XCTAssertEqual(size, ImageSize(width: synthetic.width, height: synthetic.height))
    XCTAssertLessThan(Checkerboard.sharpness(of: blurred), 30)
    XCTAssertGreaterThan(Checkerboard.sharpness(of: sharp), 30)
    // Too small for the board: not found, no crash.
    XCTAssertEqual(board.detect(in: try XCTUnwrap(GreyImage(width: 3, height: 2, pixels: [0, 255, 0, 255, 0, 255]))), .notFound(ImageSize(width: 3, height: 2)))
  }

  func testPoseFromKnownPoints() throws {
    let truth = Camera.lookingAt(
      SIMD3(0, 0, 0.76), from: SIMD3(4, -5, 3), name: "cam1", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400,
      distortion: [-0.1, 0.05, 0.0005, -0.0003, 0])
    let (l, w) = (1.37, 0.7625)
    let world = [SIMD3(-l, -w, 0.76), SIMD3(l, -w, 0.76), SIMD3(l, w, 0.76), SIMD3(-l, w, 0.76), SIMD3(0, -w - 0.1525, 0.9125), SIMD3(0, w + 0.1525, 0.9125)]
    let pixels = world.map { truth.project($0)! }
    var start = truth
    start.camFromWorld = .identity
    let fit = try XCTUnwrap(CameraPose.solve(camera: start, world: world, pixels: pixels))
    XCTAssertLessThan(fit.rmsPx, 1e-6)
    XCTAssertLessThan(length(fit.camera.center - truth.center), 1e-6)
    XCTAssertNil(CameraPose.solve(camera: start, world: Array(world.prefix(3)), pixels: Array(pixels.prefix(3))))
  }
}
