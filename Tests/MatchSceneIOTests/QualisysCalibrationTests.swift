import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// A camera worked out by hand in Qualisys' convention: at (2000, 0, 1000) mm, looking along world
/// −x with world z up in the image. Its Qualisys axes, the rows of r: x = (0, 1, 0) (image right),
/// y = (0, 0, 1) (image up), z = (1, 0, 0) (backwards). Focal length 1500 px (× 64 = 96000),
/// principal point (960, 540) px on the sensor (× 64 = 61440, 34560), the video window 1920 × 1080
/// starting at (100, 20), so cx, cy = 860, 520 in the video.
let handQCA = """
  <?xml version='1.0' encoding='ASCII'?>
  <calibration created="by hand" type="regular">
    <!-- a marker camera, which is not a video camera: skipped -->
    <camera active="1" model="Miqus M3" serial="marker_1">
      <fov_video bottom="1023" left="0" right="1023" top="0"/>
      <transform x="0" y="0" z="3000" r11="1" r12="0" r13="0" r21="0" r22="1" r23="0" r31="0" r32="0" r33="1"/>
      <intrinsic focalLengthU="64000" focalLengthV="64000" centerPointU="32768" centerPointV="32768"
                 radialDistortion1="0" radialDistortion2="0" tangentalDistortion1="0" tangentalDistortion2="0"/>
    </camera>
    <camera active="1" avg-residual="0.4" model="Miqus Video" serial="cam_10" viewrotation="0">
      <fov_video bottom="1099" left="100" right="2019" top="20"/>
      <transform x="2000" y="0" z="1000" r11="0" r12="1" r13="0" r21="0" r22="0" r23="1" r31="1" r32="0" r33="0"/>
      <intrinsic focalLengthU="96000" focalLengthV="96000" centerPointU="61440" centerPointV="34560"
                 radialDistortion1="-3.2" radialDistortion2="6.4" radialDistortion3="0"
                 tangentalDistortion1="0.064" tangentalDistortion2="-0.032" skew="0"/>
    </camera>
    <camera active="1" model="none" serial="cam_2" video_resolution="720p">
      <fov_video bottom="1079" left="0" right="1919" top="0"/>
      <transform x="0" y="-3000" z="1500" r11="1" r12="0" r13="0" r21="0" r22="0" r23="1" r31="0" r32="-1" r33="0"/>
      <intrinsic focalLengthU="96000" focalLengthV="96000" centerPointU="61440" centerPointV="34560"
                 radialDistortion1="0" radialDistortion2="0" tangentalDistortion1="0" tangentalDistortion2="0"/>
    </camera>
  </calibration>
  """

final class QualisysCalibrationTests: XCTestCase {
  func testAHandWorkedCameraProjectsWhereExpected() throws {
    let (cameras, diagnostics) = try QualisysCalibration.parse(handQCA, file: "Calib.qca.txt")
    XCTAssertEqual(cameras.map(\.name), ["cam_2", "cam_10"], "natural order of serials")
    XCTAssertEqual(diagnostics.count, 1)
    XCTAssertEqual(diagnostics.first?.severity, .note)
    XCTAssertTrue("\(diagnostics[0])".contains("camera 'marker_1' (model 'Miqus M3') is not a video camera; skipped"))

    let c = cameras[1]
    XCTAssertEqual(c.imageSize, ImageSize(width: 1920, height: 1080))
    XCTAssertEqual(c.fx, 1500)
    XCTAssertEqual(c.fy, 1500)
    XCTAssertEqual(c.cx, 860)
    XCTAssertEqual(c.cy, 520)
    // Pose2Sim divides the distortion by 64 as well (calibration.py, read_qca).
    XCTAssertEqual(c.distortion, [-0.05, 0.1, 0.001, -0.0005, 0])
    assertClose(c.center, SIMD3(2, 0, 1), absolute: 1e-12)
    assertClose(c.forward, SIMD3(-1, 0, 0), absolute: 1e-12)

    // 2 m in front at the camera's height: on the optical axis. Half a metre towards world +y
    // appears to the right (x_cam > 0), half a metre up appears above (y_cam < 0).
    func cam(_ world: SIMD3<Double>) -> SIMD3<Double> { c.camFromWorld.rotation * world + c.camFromWorld.translation }
    assertClose(cam(SIMD3(0, 0, 1)), SIMD3(0, 0, 2), absolute: 1e-12)
    assertClose(cam(SIMD3(0, 0.5, 1)), SIMD3(0.5, 0, 2), absolute: 1e-12)
    assertClose(cam(SIMD3(0, 0, 1.5)), SIMD3(0, -0.5, 2), absolute: 1e-12)

    // 720p: every pixel quantity in 1080p units scaled by 720 / 1080.
    let small = cameras[0]
    XCTAssertEqual(small.imageSize, ImageSize(width: 1280, height: 720))
    XCTAssertEqual(small.fx, 1000, accuracy: 1e-9)
    XCTAssertEqual(small.cx, 640, accuracy: 1e-9)
    XCTAssertEqual(small.cy, 360, accuracy: 1e-9)
    assertClose(small.forward, SIMD3(0, 1, 0), absolute: 1e-12)
  }

  func testBinningDividesPixelsAndDistortion() throws {
    let binned = try QualisysCalibration.parse(handQCA, file: "Calib.qca.txt", binning: 2).cameras[1]
    XCTAssertEqual(binned.imageSize, ImageSize(width: 960, height: 540))
    XCTAssertEqual(binned.fx, 750)
    XCTAssertEqual(binned.cx, 960.0 / 2 - 100)
    XCTAssertEqual(binned.distortion[0], -0.025)
  }

  func testWrittenCamerasReadBack() throws {
    let cameras = try CalibrationTOML.parse(pose2simCalibration, file: "c.toml").map { camera -> Camera in
      var c = camera
      c.distortion[4] = 0  // a .qca.txt carries no k3 that Pose2Sim reads
      c.skew = 0
      return c
    }
    let back = try QualisysCalibration.parse(QualisysCalibration.render(cameras), file: "back.qca.txt").cameras
    XCTAssertEqual(back.map(\.name), cameras.map(\.name))
    for (a, b) in zip(cameras, back) {
      XCTAssertEqual(a.imageSize, b.imageSize)
      for (x, y) in zip([a.fx, a.fy, a.cx, a.cy] + a.distortion, [b.fx, b.fy, b.cx, b.cy] + b.distortion) {
        XCTAssertEqual(x, y, accuracy: 1e-9 * max(1, abs(x)), a.name)
      }
      for i in 0..<9 { XCTAssertEqual(a.camFromWorld.rotation.m[i], b.camFromWorld.rotation.m[i], accuracy: 1e-12, a.name) }
      assertClose(a.camFromWorld.translation, b.camFromWorld.translation, absolute: 1e-9)
    }
  }

  func testErrorsNameTheCameraAndWhatIsWrong() {
    func replacing(_ old: String, _ new: String) -> String {
      precondition(handQCA.contains(old))
      return handQCA.replacingOccurrences(of: old, with: new)
    }
    let f = "Calib.qca.txt"
    assertInputError(try QualisysCalibration.parse(replacing(#"focalLengthU="96000" "#, ""), file: f),
                     contains: ["Calib.qca.txt:13: camera 'cam_10': <intrinsic> lacks focalLengthU"])
    assertInputError(try QualisysCalibration.parse(replacing(#"x="2000""#, #"x="1e308""#), file: f),
                     contains: ["camera 'cam_10': <transform> x, y, z (mm): extrinsics out of range", "10000 m"])
    assertInputError(try QualisysCalibration.parse(replacing(#"r11="0" r12="1""#, #"r11="0.5" r12="1""#), file: f),
                     contains: ["camera 'cam_10': <transform> r11…r33: not a rotation matrix"])
    assertInputError(try QualisysCalibration.parse(replacing(#"x="2000""#, #"x="far""#), file: f),
                     contains: [#"<transform> x="far" is not a finite number"#])
    assertInputError(try QualisysCalibration.parse(replacing(#"video_resolution="720p""#, #"video_resolution="hd""#), file: f),
                     contains: [#"camera 'cam_2': video_resolution="hd" is not a resolution"#])
    assertInputError(try QualisysCalibration.parse(replacing("</calibration>", "</calibration"), file: f),
                     contains: ["not valid XML: the tag <calibration is never closed with >"])
    assertInputError(try QualisysCalibration.parse("<calibration><cameras></cameras></calibration>", file: f),
                     contains: ["no video camera"])
    assertInputError(try QualisysCalibration.parse(replacing(#"focalLengthU="96000""#, #"focalLengthU="3e-322""#), file: f),
                     contains: ["focal length fx", "accepted 1–1000000 px"])
  }

  func testMatchFolderFindsAndReadsAQualisysCalibration() throws {
    let folder = try makeTemporaryFolder()
    try writeText(handQCA, to: folder.appendingPathComponent("calibration/Calib.qca.txt"))
    try writeText("Frame,Visibility,X,Y\n0,1,960,540\n", to: folder.appendingPathComponent("ball/cam_10.csv"))
    XCTAssertEqual(try MatchFolder.findCalibration(in: folder.appendingPathComponent("calibration")).lastPathComponent, "Calib.qca.txt")
    let loaded = try MatchFolder.load(folder)
    XCTAssertEqual(loaded.match.cameras.map(\.name), ["cam_2", "cam_10"])
    XCTAssertTrue(loaded.diagnostics.contains { $0.severity == .note && "\($0)".contains("marker_1") })

    // Given as the calibration option, from elsewhere.
    let elsewhere = try makeTemporaryFolder().appendingPathComponent("lab.qca.txt")
    try writeText(handQCA, to: elsewhere)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("calibration"))
    let given = try MatchFolder.load(folder, options: MatchFolderOptions(calibration: elsewhere))
    XCTAssertEqual(given.match.cameras[1].fx, 1500)

    // A TOML beside it wins, as before.
    try writeText(handQCA, to: folder.appendingPathComponent("calibration/Calib.qca.txt"))
    try writeText(pose2simCalibration, to: folder.appendingPathComponent("calibration/calibration.toml"))
    XCTAssertEqual(try MatchFolder.findCalibration(in: folder.appendingPathComponent("calibration")).lastPathComponent, "calibration.toml")
  }
}
