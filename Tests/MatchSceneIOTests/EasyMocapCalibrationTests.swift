import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// Rotation entries as EasyMocap's `FileStorage.write` prints them (`'{:.6f}'`).
func sixDecimals(_ xs: [Double]) -> String { xs.map { String(format: "%.6f", $0) }.joined(separator: ", ") }

/// An EasyMocap intri.yml as `write_camera` writes it (CRLF, 6 decimals, H/W for cam01 only) with
/// cam02 in OpenCV's own style (wrapped data, exponents, 5×1 distortion).
let easyMocapIntri = """
  %YAML:1.0
  ---
  names:
    - "cam01"
    - "cam02"
  K_cam01: !!opencv-matrix
    rows: 3
    cols: 3
    dt: d
    data: [1402.510000, 0.000000, 961.200000, 0.000000, 1401.880000, 538.700000, 0.000000, 0.000000, 1.000000]
  dist_cam01: !!opencv-matrix
    rows: 1
    cols: 5
    dt: d
    data: [-0.118300, 0.048900, 0.000410, -0.000220, 0.000000]
  H_cam01: 1080
  W_cam01: 1920
  K_cam02: !!opencv-matrix
     rows: 3
     cols: 3
     dt: d
     data: [ 1.3982000000000000e+03, 0., 9.5890000000000000e+02, 0.,
         1.3989000000000000e+03, 5.4130000000000000e+02, 0., 0., 1. ]
  dist_cam02: !!opencv-matrix
     rows: 5
     cols: 1
     dt: d
     data: [ -1.2010000000000000e-01, 5.1100000000000000e-02,
         -3.0000000000000000e-04, 1.0000000000000000e-04, 2.0000000000000000e-03 ]
  """.replacingOccurrences(of: "\n", with: "\r\n")

/// The matching extri.yml: cam01 with R_ and Rot_ (as write_camera), cam02 with Rot_ only.
let easyMocapExtri = """
  %YAML:1.0
  ---
  names:
    - "cam01"
    - "cam02"
  R_cam01: !!opencv-matrix
    rows: 3
    cols: 1
    dt: d
    data: [1.731800, 0.690400, -0.512300]
  Rot_cam01: !!opencv-matrix
    rows: 3
    cols: 3
    dt: d
    data: [\(sixDecimals(Matrix3.rodrigues(SIMD3(1.7318, 0.6904, -0.5123)).m))]
  T_cam01: !!opencv-matrix
    rows: 3
    cols: 1
    dt: d
    data: [0.318500, 0.861100, 4.402700]
  Rot_cam02: !!opencv-matrix
    rows: 3
    cols: 3
    dt: d
    data: [\(sixDecimals(Matrix3.rodrigues(SIMD3(1.5011, -0.8221, 0.6120)).m))]
  T_cam02: !!opencv-matrix
    rows: 3
    cols: 1
    dt: d
    data: [-0.221100, 0.901200, 4.650100]
  """

final class EasyMocapCalibrationTests: XCTestCase {
  func parse(intri: String = easyMocapIntri, extri: String = easyMocapExtri) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    try EasyMocapCalibration.parse(intri: intri, extri: extri, intriFile: "calib/intri.yml", extriFile: "calib/extri.yml")
  }

  func testReadsEasyMocapFiles() throws {
    let (cameras, diagnostics) = try parse()
    XCTAssertEqual(cameras.map(\.name), ["cam01", "cam02"])
    let c = cameras[0]
    XCTAssertEqual(c.imageSize, ImageSize(width: 1920, height: 1080))
    XCTAssertEqual([c.fx, c.fy, c.cx, c.cy, c.skew], [1402.51, 1401.88, 961.2, 538.7, 0])
    XCTAssertEqual(c.distortion, [-0.1183, 0.0489, 0.00041, -0.00022, 0])
    XCTAssertEqual(c.lensModel, .pinhole)
    assertClose(c.camFromWorld.rotation.rodriguesVector, SIMD3(1.7318, 0.6904, -0.5123), absolute: 1e-12, "R_ is used")
    XCTAssertEqual(c.camFromWorld.translation, SIMD3(0.3185, 0.8611, 4.4027))
    let d = cameras[1]
    XCTAssertEqual(d.fy, 1398.9)
    XCTAssertEqual(d.distortion, [-0.1201, 0.0511, -0.0003, 0.0001, 0.002])
    assertClose(d.camFromWorld.rotation.rodriguesVector, SIMD3(1.5011, -0.8221, 0.6120), absolute: 1e-5, "Rot_ at 6 decimals")
    XCTAssertEqual(d.imageSize, ImageSize(width: 1918, height: 1083), "round(2·cx) × round(2·cy) without H/W")
    XCTAssertEqual(diagnostics.map(\.description), [
      "note: calib/intri.yml: [K_cam02]: no H_cam02 / W_cam02: image size taken as 2·cx × 2·cy = 1918 × 1083",
    ])
  }

  func testWriteThenReadKeepsEveryNumber() throws {
    var cameras = Array(try CalibrationTOML.parse(pose2simCalibration, file: "c.toml").prefix(3))
    cameras[0].fx = 1402.5137429871235
    cameras[1].skew = 0.25
    cameras[2].camFromWorld.rotation = Matrix3.rodrigues(SIMD3(0, 0, .pi - 1e-9))
    cameras[2].imageSize = ImageSize(width: 640, height: 480)
    let folder = try makeTemporaryFolder()
    try EasyMocapCalibration.write(cameras, to: folder)
    let text = try String(contentsOf: folder.appendingPathComponent("intri.yml"), encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("%YAML:1.0\n---\nnames:\n  - \"cam01\"\n"), text)
    let (back, diagnostics) = try EasyMocapCalibration.readWithDiagnostics(
      intri: folder.appendingPathComponent("intri.yml"), extri: folder.appendingPathComponent("extri.yml"))
    XCTAssertEqual(diagnostics, [], "H and W are written")
    XCTAssertEqual(back.map(\.name), cameras.map(\.name))
    for (a, b) in zip(cameras, back) {
      XCTAssertEqual(a.imageSize, b.imageSize)
      XCTAssertEqual([a.fx, a.fy, a.cx, a.cy, a.skew] + a.distortion, [b.fx, b.fy, b.cx, b.cy, b.skew] + b.distortion)
      XCTAssertEqual(a.camFromWorld.translation, b.camFromWorld.translation)
      for i in 0..<9 { XCTAssertEqual(a.camFromWorld.rotation.m[i], b.camFromWorld.rotation.m[i], accuracy: 1e-12) }
    }
    var fisheye = try CalibrationTOML.parse(pose2simCalibration, file: "c.toml")
    assertInputError(try EasyMocapCalibration.render(fisheye), contains: ["intri.yml: [dist_cam04]", "fisheye"])
    fisheye[3].name = "side cam"
    fisheye[3].lensModel = .pinhole
    assertInputError(try EasyMocapCalibration.render(fisheye), contains: ["[names]", "'side cam' cannot be part of an OpenCV key"])
  }

  func replacing(_ text: String, _ old: String, _ new: String) -> String {
    precondition(text.contains(old), old)
    return text.replacingOccurrences(of: old, with: new)
  }

  func testNonRotationIsRejected() {
    let flipped = replacing(easyMocapExtri, sixDecimals(Matrix3.rodrigues(SIMD3(1.5011, -0.8221, 0.6120)).m), "1, 0, 0, 0, 1, 0, 0, 0, -1")
    assertInputError(try parse(extri: flipped), contains: ["calib/extri.yml: [Rot_cam02]", "not a rotation", "det = -1"])
    let disagreeing = replacing(easyMocapExtri, "data: [1.731800, 0.690400, -0.512300]", "data: [1.731800, 0.690400, 0.512300]")
    assertInputError(try parse(extri: disagreeing), contains: ["calib/extri.yml: [Rot_cam01]", "disagrees with R_cam01"])
  }

  func testNonFiniteAndMissingValuesNameFileAndKey() {
    assertInputError(try parse(intri: replacing(easyMocapIntri, "1402.510000", ".nan")),
                     contains: ["calib/intri.yml: [K_cam01]", "data element 1 is not finite (.nan)"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "1.3989000000000000e+03", "nan")),
                     contains: ["[K_cam02]", "data element 5 is not finite"])
    assertInputError(try parse(extri: replacing(easyMocapExtri, "T_cam02", "T_camXX")),
                     contains: ["calib/extri.yml: [T_cam02]: missing"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "dist_cam01", "distortion_cam01")),
                     contains: ["calib/intri.yml: [dist_cam01]: missing"])
    assertInputError(try parse(extri: replacing(easyMocapExtri, "Rot_cam02", "Rotation_cam02")),
                     contains: ["calib/extri.yml: [R_cam02]: missing", "or Rot_cam02"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "names:", "cameras:")), contains: ["calib/intri.yml: [names]: missing"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "W_cam01: 1920", "")), contains: ["[W_cam01]: missing"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "rows: 1\r\n  cols: 5", "rows: 1\r\n  cols: 4")),
                     contains: ["[dist_cam01]", "data holds 5 numbers; expected rows × cols = 4"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "0.000000, 0.000000, 1.000000]", "0.000000, 0.100000, 1.000000]")),
                     contains: ["[K_cam01]", "[[fx, s, cx], [0, fy, cy], [0, 0, 1]]"])
    assertInputError(try parse(intri: replacing(easyMocapIntri, "data: [-0.118300", "data: [-0.118300 0.1")),
                     contains: ["[dist_cam01]", "data element 1 is not a number"])
  }
}
