import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `matchscene calibrate` on rendered checkerboard images and computed table corners, and its clear
/// failures: too few board views, blurred images, corners in another order, a camera that sees no board.
final class CalibrateCLITests: XCTestCase {
  let synthetic = SyntheticCheckerboard()

  /// Two cameras 5 m from the table's centre with the synthetic images' intrinsics.
  func rig() -> [Camera] {
    [SIMD3(0.5, -5, 3), SIMD3(-4, 3, 2.5)].enumerated().map { i, eye in
      var c = Camera.lookingAt(
        SIMD3(0, 0, 0.76), from: eye, name: "cam\(i + 1)", imageSize: ImageSize(width: synthetic.width, height: synthetic.height),
        focalPx: synthetic.fx)
      c.cx = synthetic.cx
      c.cy = synthetic.cy
      return c
    }
  }

  /// The table's corners in each camera (distortion-free pinhole), in the order of `order` (model corners
  /// (−x −y), (+x −y), (+x +y), (−x +y)).
  func cornersTOML(_ cameras: [Camera], orders: [String: [Int]] = [:]) -> String {
    let (l, w, h) = (1.37, 0.7625, 0.76)
    let model = [SIMD3(-l, -w, h), SIMD3(l, -w, h), SIMD3(l, w, h), SIMD3(-l, w, h)]
    var out = ""
    for c in cameras {
      let pixels = (orders[c.name] ?? [0, 1, 2, 3]).map { k -> String in
        let p = c.camFromWorld.apply(model[k])
        return String(format: "[%.4f, %.4f]", c.fx * p.x / p.z + c.cx, c.fy * p.y / p.z + c.cy)
      }
      out += "[\(c.name)]\ncorners = [\(pixels.joined(separator: ", "))]\n\n"
    }
    return out
  }

  func testCalibratesIntrinsicsAndTheTablePoses() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate")
    let images = folder.appendingPathComponent("intrinsics"), out = folder.appendingPathComponent("out")
    try synthetic.writeIntrinsicsFolder(images, cameras: ["cam1", "cam2"], blurred: ["cam2/3"])
    let corners = folder.appendingPathComponent("table_corners.toml")
    try Data(cornersTOML(rig()).utf8).write(to: corners)
    let run = try runMatchScene([
      "calibrate", "-o", out.path, "--images", images.path, "--board", "7x4", "--square", "60mm", "--table-corners", corners.path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    let cameras = try CalibrationTOML.read(from: out.appendingPathComponent("calibration.toml"))
    XCTAssertEqual(cameras.map(\.name), ["cam1", "cam2"])
    for (fitted, truth) in zip(cameras, rig()) {
      XCTAssertEqual(fitted.fx, synthetic.fx, accuracy: synthetic.fx * 0.01)
      XCTAssertEqual(fitted.cx, synthetic.cx, accuracy: 3)
      XCTAssertLessThan(length(fitted.center - truth.center), 0.05, "\(fitted.name): \(fitted.center) vs \(truth.center)")
    }
    let report = try String(contentsOf: out.appendingPathComponent("calibration_report.json"), encoding: .utf8)
    XCTAssertTrue(report.contains("blurred"), report)
    XCTAssertTrue(run.stdout.contains("rejected") && run.stdout.contains("cam2_03.pgm"), run.stdout)
    let svg = try String(contentsOf: out.appendingPathComponent("rig.svg"), encoding: .utf8)
    XCTAssertTrue(svg.hasPrefix("<svg") && svg.contains("cam2"), svg)
  }

  func testTooFewSharpBoardViewsNameTheCameraAndTheBlurredImages() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-few")
    let images = folder.appendingPathComponent("intrinsics")
    try synthetic.writeIntrinsicsFolder(images, cameras: ["cam1"], blurred: ["cam1/2", "cam1/3"], views: 4)
    let run = try runMatchScene(["calibrate", "-o", folder.appendingPathComponent("out").path, "--images", images.path, "--board", "7x4", "--square", "60mm"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("camera cam1: 2 of 4 image(s) show the board (need ≥ 3)"), run.stderr)
    XCTAssertTrue(run.stderr.contains("cam1_02.pgm: blurred"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }

  func testCornersInAnotherOrderNameTheCamera() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-order")
    let images = folder.appendingPathComponent("intrinsics")
    try synthetic.writeIntrinsicsFolder(images, cameras: ["cam1", "cam2"], views: 5)
    let corners = folder.appendingPathComponent("table_corners.toml")
    try Data(cornersTOML(rig(), orders: ["cam2": [1, 2, 3, 0]]).utf8).write(to: corners)
    let run = try runMatchScene([
      "calibrate", "-o", folder.appendingPathComponent("out").path, "--images", images.path, "--board", "7x4", "--square", "60mm",
      "--table-corners", corners.path,
    ])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("table_corners.toml: [cam"), run.stderr)
    XCTAssertTrue(run.stderr.contains("another order than the other cameras'"), run.stderr)
  }

  func testABoardSeenByEveryCameraPlacesThemInItsFrame() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-board-poses")
    let images = folder.appendingPathComponent("intrinsics"), boards = folder.appendingPathComponent("extrinsics")
    let out = folder.appendingPathComponent("out")
    try synthetic.writeIntrinsicsFolder(images, cameras: ["cam1", "cam2"], views: 6)
    try FileManager.default.createDirectory(at: boards, withIntermediateDirectories: true)
    let poses = ["cam1": SyntheticCheckerboard.views[2], "cam2": SyntheticCheckerboard.views[4]]
    for (name, pose) in poses { try synthetic.writePGM(synthetic.render(pose), to: boards.appendingPathComponent("\(name)_ext.pgm")) }
    let run = try runMatchScene([
      "calibrate", "-o", out.path, "--images", images.path, "--board", "7x4", "--square", "60mm", "--board-images", boards.path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    let cameras = try CalibrationTOML.read(from: out.appendingPathComponent("calibration.toml"))
    for camera in cameras {
      // The world is the board's frame: the camera's pose is the board's pose in the camera (either end of
      // the board first: the detector may start at the opposite corner, a half turn about the board's normal).
      let pose = try XCTUnwrap(poses[camera.name])
      let r = synthetic.rotation(pose)
      let truthCentre = SIMD3((0..<3).map { i in -(0..<3).reduce(0) { $0 + r[$1][i] * pose.origin[$1] } })
      let far = SIMD3(Double(synthetic.columns - 1) * synthetic.square, Double(synthetic.rows - 1) * synthetic.square, 0)
      let turned = SIMD3(far.x - truthCentre.x, far.y - truthCentre.y, truthCentre.z)
      let error = min(length(camera.center - truthCentre), length(camera.center - turned))
      XCTAssertLessThan(error, 0.01, "\(camera.name): centre \(camera.center) vs \(truthCentre)")
    }
  }

  func testACameraThatSeesNoBoardIsNamed() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder("calibrate-board")
    let images = folder.appendingPathComponent("intrinsics"), boards = folder.appendingPathComponent("extrinsics")
    try synthetic.writeIntrinsicsFolder(images, cameras: ["cam1", "cam2"], views: 5)
    try FileManager.default.createDirectory(at: boards, withIntermediateDirectories: true)
    try synthetic.writePGM(synthetic.render(SyntheticCheckerboard.views[0]), to: boards.appendingPathComponent("cam1_ext.pgm"))
    try synthetic.writePGM(synthetic.render(SyntheticCheckerboard.views[0], blur: 30), to: boards.appendingPathComponent("cam2_ext.pgm"))
    let run = try runMatchScene([
      "calibrate", "-o", folder.appendingPathComponent("out").path, "--images", images.path, "--board", "7x4", "--square", "60mm",
      "--board-images", boards.path,
    ])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("cam2_ext.pgm: [cam2]: camera cam2 sees the board in none of its images"), run.stderr)
    XCTAssertTrue(run.stderr.contains("shares no view"), run.stderr)
  }
}
