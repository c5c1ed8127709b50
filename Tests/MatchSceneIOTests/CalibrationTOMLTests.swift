import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// A Pose2Sim calibration as Pose2Sim writes it (numbers from a real 4-camera table-tennis rig).
let pose2simCalibration = """
  [cam01]
  name = "cam01"
  size = [ 1920.0, 1080.0,]
  matrix = [ [ 1402.51, 0.0, 961.2,], [ 0.0, 1401.88, 538.7,], [ 0.0, 0.0, 1.0,],]
  distortions = [ -0.1183, 0.0489, 0.00041, -0.00022,]
  rotation = [ 1.7318, 0.6904, -0.5123,]
  translation = [ 0.3185, 0.8611, 4.4027,]
  fisheye = false

  [cam02]
  name = "cam02"
  size = [ 1920.0, 1080.0,]
  matrix = [ [ 1398.2, 0.0, 958.9,], [ 0.0, 1398.9, 541.3,], [ 0.0, 0.0, 1.0,],]
  distortions = [ -0.1201, 0.0511, -0.0003, 0.0001, 0.002,]
  rotation = [ 1.5011, -0.8221, 0.6120,]
  translation = [ -0.2211, 0.9012, 4.6501,]
  fisheye = false

  [cam03]
  name = "cam03"
  size = [ 1920, 1080,]
  matrix = [ [ 1405, 0, 960, ], [ 0, 1405, 540, ], [ 0, 0, 1, ], ]
  distortions = [ -0.11, 0.04, 0.0, 0.0,]
  rotation = [ -0.8, 2.0, -1.2,]
  translation = [ 0.1, 0.7, 4.5,]

  [cam04]
  size = [ 1920.0, 1080.0,]
  matrix = [ [ 1390.0, 0.0, 955.0,], [ 0.0, 1390.0, 545.0,], [ 0.0, 0.0, 1.0,],]
  distortions = [ 0.02, -0.004, 0.001, -0.0002,]
  rotation = [ 0.7, 1.9, -1.5,]
  translation = [ -0.3, 0.8, 4.3,]
  fisheye = true

  [metadata]
  adjusted = false
  error = 0.0
  """

final class CalibrationTOMLTests: XCTestCase {
  func testReadsAPose2SimFile() throws {
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "calib.toml")
    XCTAssertEqual(cameras.map(\.name), ["cam01", "cam02", "cam03", "cam04"])
    let c = cameras[0]
    XCTAssertEqual(c.imageSize, ImageSize(width: 1920, height: 1080))
    XCTAssertEqual(c.fx, 1402.51)
    XCTAssertEqual(c.cy, 538.7)
    XCTAssertEqual(c.distortion, [-0.1183, 0.0489, 0.00041, -0.00022, 0])
    assertClose(c.camFromWorld.rotation.rodriguesVector, SIMD3(1.7318, 0.6904, -0.5123), absolute: 1e-12)
    XCTAssertEqual(c.camFromWorld.translation, SIMD3(0.3185, 0.8611, 4.4027))
    XCTAssertEqual(cameras[1].distortion[4], 0.002)
    XCTAssertEqual(cameras[2].fx, 1405, "integers are numbers too")
    XCTAssertEqual(cameras[3].lensModel, .fisheye)
  }

  func testRoundTrip() throws {
    let folder = try makeTemporaryFolder()
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "calib.toml")
    let url = folder.appendingPathComponent("out.toml")
    try CalibrationTOML.write(cameras, to: url)
    let back = try CalibrationTOML.read(from: url)
    XCTAssertEqual(back.map(\.name), cameras.map(\.name))
    for (a, b) in zip(cameras, back) {
      XCTAssertEqual(a.imageSize, b.imageSize)
      XCTAssertEqual(a.lensModel, b.lensModel)
      for (x, y) in zip([a.fx, a.fy, a.cx, a.cy, a.skew] + a.distortion, [b.fx, b.fy, b.cx, b.cy, b.skew] + b.distortion) {
        XCTAssertEqual(x, y, accuracy: 1e-12)
      }
      for i in 0..<9 { XCTAssertEqual(a.camFromWorld.rotation.m[i], b.camFromWorld.rotation.m[i], accuracy: 1e-12) }
      assertClose(a.camFromWorld.translation, b.camFromWorld.translation, absolute: 1e-12)
    }
  }

  func expectError(_ text: String, contains pieces: [String], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try CalibrationTOML.parse(text, file: "bad.toml"), file: file, line: line) { error in
      let message = "\(error)"
      XCTAssertTrue(message.hasPrefix("bad.toml"), message, file: file, line: line)
      for piece in pieces { XCTAssertTrue(message.contains(piece), "'\(message)' lacks '\(piece)'", file: file, line: line) }
    }
  }

  func testMalformedInputNamesFileAndPlace() {
    expectError("[cam01]\nname = \"cam01\"\nsize = [1920, 1080\n", contains: ["bad.toml:", "TOML"])
    expectError(pose2simCalibration.replacingOccurrences(of: "rotation = [ 1.7318, 0.6904, -0.5123,]", with: "rotation = [[1,0,0],[0,1,0],[0,0,-1]]"),
                contains: ["[cam01.rotation]", "not a rotation"])
    expectError(pose2simCalibration.replacingOccurrences(of: "translation = [ 0.3185, 0.8611, 4.4027,]", with: "translation = [ 0.3185, nan, 4.4027,]"),
                contains: ["[cam01.translation]", "finite"])
    expectError(pose2simCalibration.replacingOccurrences(of: "matrix = [ [ 1402.51, 0.0, 961.2,], [ 0.0, 1401.88, 538.7,], [ 0.0, 0.0, 1.0,],]", with: ""),
                contains: ["[cam01.matrix]", "missing"])
    expectError(pose2simCalibration.replacingOccurrences(of: "distortions = [ -0.1183, 0.0489, 0.00041, -0.00022,]", with: "distortions = [1, 2]"),
                contains: ["[cam01.distortions]", "4 or 5"])
    expectError("[metadata]\nerror = 0.0\n", contains: ["no camera"])
  }
}
