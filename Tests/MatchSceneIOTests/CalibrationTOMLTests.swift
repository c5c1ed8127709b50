import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// A Pose2Sim calibration as Pose2Sim writes it (4 cameras around a table-tennis table, a fisheye,
/// one table without `name`, one with integers, a metadata table).
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
  func testReadsAPose2SimFileInFileOrder() throws {
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "calib.toml")
    XCTAssertEqual(cameras.map(\.name), ["cam01", "cam02", "cam03", "cam04"], "metadata is not a camera; cam04 named by its table")
    let c = cameras[0]
    XCTAssertEqual(c.imageSize, ImageSize(width: 1920, height: 1080))
    XCTAssertEqual(c.fx, 1402.51)
    XCTAssertEqual(c.fy, 1401.88)
    XCTAssertEqual(c.cx, 961.2)
    XCTAssertEqual(c.cy, 538.7)
    XCTAssertEqual(c.skew, 0)
    XCTAssertEqual(c.distortion, [-0.1183, 0.0489, 0.00041, -0.00022, 0])
    XCTAssertEqual(c.lensModel, .pinhole)
    assertClose(c.camFromWorld.rotation.rodriguesVector, SIMD3(1.7318, 0.6904, -0.5123), absolute: 1e-12)
    XCTAssertEqual(c.camFromWorld.translation, SIMD3(0.3185, 0.8611, 4.4027))
    XCTAssertEqual(cameras[1].distortion[4], 0.002)
    XCTAssertEqual(cameras[2].fx, 1405, "integers are numbers too")
    XCTAssertEqual(cameras[3].lensModel, .fisheye)
  }

  func testFileOrderIsKeptWhenItIsNotAlphabetical() throws {
    // TOMLKit sorts keys; the calibration order must follow the file (multi-line arrays in between).
    let text = pose2simCalibration
      .replacingOccurrences(of: "[cam01]\nname = \"cam01\"", with: "[zcam]\nname = \"zcam\"")
      .replacingOccurrences(
        of: "matrix = [ [ 1398.2, 0.0, 958.9,], [ 0.0, 1398.9, 541.3,], [ 0.0, 0.0, 1.0,],]",
        with: "matrix = [\n  [ 1398.2, 0.0, 958.9,],\n  [ 0.0, 1398.9, 541.3,],\n  [ 0.0, 0.0, 1.0,],\n]")
    let cameras = try CalibrationTOML.parse(text, file: "calib.toml")
    XCTAssertEqual(cameras.map(\.name), ["zcam", "cam02", "cam03", "cam04"])
    XCTAssertEqual(cameras[1].fy, 1398.9)
  }

  func testAcceptsAProperRotationMatrix() throws {
    let r = Matrix3.rodrigues(SIMD3(0.3, -1.2, 2.2))
    let rows = (0..<3).map { i in "[\(r.m[3 * i]), \(r.m[3 * i + 1]), \(r.m[3 * i + 2])]" }.joined(separator: ", ")
    let text = pose2simCalibration.replacingOccurrences(of: "rotation = [ 1.7318, 0.6904, -0.5123,]", with: "rotation = [\(rows)]")
    let cameras = try CalibrationTOML.parse(text, file: "calib.toml")
    for i in 0..<9 { XCTAssertEqual(cameras[0].camFromWorld.rotation.m[i], r.m[i], accuracy: 1e-15) }
  }

  func testRoundTripKeepsEveryNumber() throws {
    var cameras = try CalibrationTOML.parse(pose2simCalibration, file: "calib.toml")
    // Awkward numbers: many digits, tiny and huge magnitudes, skew, a rotation near π.
    var random = SeededGenerator(seed: 7)
    cameras[0].fx = 1402.5137429871235
    cameras[0].cx = 961.1999999999999
    cameras[0].skew = 0.25
    cameras[1].distortion = [random.uniform(-1...1), 1e-9, -3.3e-7, 2.5e-5, 1e-300]
    cameras[2].camFromWorld.rotation = Matrix3.rodrigues(SIMD3(0, 0, .pi - 1e-9))
    cameras[2].camFromWorld.translation = SIMD3(random.uniform(-10...10), -9999.123456789012, -0.1)
    cameras[3].name = "side \"B\" cam"
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("out.toml")
    try CalibrationTOML.write(cameras, to: url)
    let back = try CalibrationTOML.read(from: url)
    XCTAssertEqual(back.map(\.name), cameras.map(\.name))
    for (a, b) in zip(cameras, back) {
      XCTAssertEqual(a.imageSize, b.imageSize)
      XCTAssertEqual(a.lensModel, b.lensModel)
      let numbersA = [a.fx, a.fy, a.cx, a.cy, a.skew] + a.distortion
      let numbersB = [b.fx, b.fy, b.cx, b.cy, b.skew] + b.distortion
      for (x, y) in zip(numbersA, numbersB) { XCTAssertEqual(x, y, accuracy: 1e-12 * max(1, abs(x)), a.name) }
      for i in 0..<9 { XCTAssertEqual(a.camFromWorld.rotation.m[i], b.camFromWorld.rotation.m[i], accuracy: 1e-12, a.name) }
      for i in 0..<3 {
        let t = a.camFromWorld.translation[i]
        XCTAssertEqual(t, b.camFromWorld.translation[i], accuracy: 1e-12 * max(1, abs(t)), a.name)
      }
    }
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(text.hasSuffix("[metadata]\nadjusted = false\nerror = 0.0\n"), text)
    // Numbers are written in Swift's shortest round-trip form, whatever literal produced them.
    XCTAssertTrue(text.contains("size = [ 1920.0, 1080.0,]\nmatrix = [ [ \(cameras[0].fx), 0.25, \(cameras[0].cx),],"), text)
  }

  func expectError(_ text: String, contains pieces: [String], file: StaticString = #filePath, line: UInt = #line) {
    let message = assertInputError(try CalibrationTOML.parse(text, file: "bad.toml"), contains: pieces, file: file, line: line)
    XCTAssertTrue(message.hasPrefix("bad.toml"), message, file: file, line: line)
  }

  func replacing(_ old: String, _ new: String) -> String {
    precondition(pose2simCalibration.contains(old))
    return pose2simCalibration.replacingOccurrences(of: old, with: new)
  }

  func testMalformedTOMLNamesLineAndColumn() {
    expectError("[cam01]\nname = \"cam01\"\nsize = [1920, 1080\nmatrix = 3\n", contains: ["bad.toml:4:", "not valid TOML"])
  }

  func testRotationMatrixThatIsNotARotation() {
    expectError(replacing("rotation = [ 1.7318, 0.6904, -0.5123,]", "rotation = [[1,0,0],[0,1,0],[0,0,-1]]"),
                contains: ["bad.toml: [cam01.rotation]", "not a rotation", "det = -1"])
    expectError(replacing("rotation = [ 1.7318, 0.6904, -0.5123,]", "rotation = [[1,0,0],[0,1.001,0],[0,0,1]]"),
                contains: ["[cam01.rotation]", "not a rotation"])
    expectError(replacing("rotation = [ 1.7318, 0.6904, -0.5123,]", "rotation = [[1,0],[0,1]]"),
                contains: ["[cam01.rotation]", "expected 3 rows"])
  }

  func testNonFiniteNumbers() {
    expectError(replacing("translation = [ 0.3185, 0.8611, 4.4027,]", "translation = [ 0.3185, nan, 4.4027,]"),
                contains: ["bad.toml: [cam01.translation]", "element 2 is not finite"])
    expectError(replacing("[ 0.0, 1398.9, 541.3,]", "[ 0.0, inf, 541.3,]"), contains: ["[cam02.matrix]", "row 2, column 2"])
  }

  func testMissingAndWronglySizedKeys() {
    expectError(replacing("matrix = [ [ 1402.51, 0.0, 961.2,], [ 0.0, 1401.88, 538.7,], [ 0.0, 0.0, 1.0,],]", ""),
                contains: ["[cam01.matrix]", "missing"])
    expectError(replacing("translation = [ -0.3, 0.8, 4.3,]", ""), contains: ["[cam04.translation]", "missing"])
    expectError(replacing("rotation = [ 1.5011, -0.8221, 0.6120,]", ""), contains: ["[cam02.rotation]", "missing"])
    expectError(replacing("distortions = [ -0.1183, 0.0489, 0.00041, -0.00022,]", "distortions = [1, 2]"),
                contains: ["[cam01.distortions]", "expected 4 or 5 numbers, got 2"])
    expectError(replacing("distortions = [ 0.02, -0.004, 0.001, -0.0002,]", "distortions = [ 0.02, -0.004, 0.001, -0.0002, 0.1]"),
                contains: ["[cam04.distortions]", "expected 4 numbers, got 5"])
    expectError(replacing("size = [ 1920, 1080,]", "size = [ 1920,]"), contains: ["[cam03.size]", "expected 2 numbers"])
    expectError(replacing("translation = [ 0.1, 0.7, 4.5,]", "translation = \"far\""), contains: ["[cam03.translation]", "array"])
  }

  func testIntrinsicMatrixChecks() {
    expectError(replacing("[ 0.0, 1401.88, 538.7,]", "[ 0.0, -1401.88, 538.7,]"), contains: ["[cam01.matrix]", "focal length fy = -1401.88 px; accepted 1–1000000 px"])
    expectError(replacing("[ [ 1405, 0, 960, ], [ 0, 1405, 540, ], [ 0, 0, 1, ], ]", "[ [ 0, 0, 960, ], [ 0, 1405, 540, ], [ 0, 0, 1, ], ]"),
                contains: ["[cam03.matrix]", "focal length fx = 0.0 px"])
    expectError(replacing("[ 0.0, 0.0, 1.0,],]\ndistortions = [ -0.1183", "[ 0.1, 0.0, 1.0,],]\ndistortions = [ -0.1183"),
                contains: ["[cam01.matrix]", "[[fx, s, cx], [0, fy, cy], [0, 0, 1]]"])
  }

  func testDuplicateNamesAndNoCameras() {
    expectError(replacing("[cam03]\nname = \"cam03\"", "[cam03]\nname = \"cam01\""),
                contains: ["[cam03.name]", "'cam01' is used twice", "[cam01] and [cam03]"])
    expectError("[metadata]\nerror = 0.0\n[charuco]\nsquare = 0.1\n", contains: ["bad.toml:", "no camera tables"])
    expectError("", contains: ["no camera tables"])
  }
}
