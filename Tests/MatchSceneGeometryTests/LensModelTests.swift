import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

final class LensModelTests: XCTestCase {
  /// Normalised points spread over the whole image of an HD camera with f = 1400 px.
  func grid() -> [SIMD2<Double>] {
    var out: [SIMD2<Double>] = []
    for i in 0...20 {
      for j in 0...20 {
        out.append(SIMD2(-0.68 + 1.36 * Double(i) / 20, -0.38 + 0.76 * Double(j) / 20))
      }
    }
    return out
  }

  func roundTrip(_ camera: Camera, file: StaticString = #filePath, line: UInt = #line) throws {
    let normalised = grid()
    let pixels = try camera.distort(normalised)
    let back = try camera.undistort(pixels)
    for (a, b) in zip(normalised, back) {
      guard let b else { return XCTFail("undistortion did not converge for \(a)", file: file, line: line) }
      XCTAssertLessThan(max(abs(a.x - b.x), abs(a.y - b.y)), 1e-9, "\(a)", file: file, line: line)
    }
  }

  func testPinholeRoundTrip() throws {
    let camera = ringCameras()[0]
    try roundTrip(camera)
    var fourCoefficients = camera
    fourCoefficients.distortion = [-0.25, 0.08, 0.001, -0.001, 0]
    try roundTrip(fourCoefficients)
    // Strong barrel distortion (still invertible over the image: d(r·radial)/dr > 0.5 up to its corners),
    // where the radial series that starts Newton's method is least accurate.
    var strong = camera
    strong.distortion = [-0.45, 0.25, 0.002, -0.001, -0.08]
    try roundTrip(strong)
    var pincushion = camera
    pincushion.distortion = [0.2, -0.05, 0.002, 0.001, 0.01]
    try roundTrip(pincushion)
  }

  func testFisheyeRoundTrip() throws {
    var camera = ringCameras()[0]
    camera.lensModel = .fisheye
    camera.distortion = [0.05, -0.01, 0.002, -0.0005, 0]
    try roundTrip(camera)
  }

  func testProjectionMatchesTheOpenCVFormula() throws {
    let camera = ringCameras()[1]
    let point = SIMD3<Double>(0.4, -0.3, 1.1)
    let p = camera.camFromWorld.apply(point)
    let x = p.x / p.z, y = p.y / p.z
    let (k1, k2, p1, p2, k3) = (camera.distortion[0], camera.distortion[1], camera.distortion[2], camera.distortion[3], camera.distortion[4])
    let r2 = x * x + y * y
    let radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
    let xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
    let yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
    let pixel = camera.project(point)!
    assertClose(pixel.x, camera.fx * xd + camera.cx, absolute: 1e-9)
    assertClose(pixel.y, camera.fy * yd + camera.cy, absolute: 1e-9)
  }

  func testPointsBehindTheCameraDoNotProject() {
    let camera = ringCameras()[0]
    let behind = camera.center - 2 * camera.forward
    XCTAssertNil(camera.project(behind))
    XCTAssertNotNil(camera.project(camera.center + 2 * camera.forward))
  }
}
