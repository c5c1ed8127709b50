@testable import MatchSceneReconstruction
import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// One-view completion of the ball from its motion.
final class BallCompletionTests: XCTestCase {
  let fps = 60.0
  let cameras: [Camera] = (0..<4).map { i in
    let a = 2 * Double.pi * (Double(i) + 0.5) / 4
    return Camera.lookingAt(
      SIMD3(0, 0, 0.9), from: SIMD3(4.5 * cos(a), 4.5 * sin(a), 2.5), name: "cam\(i + 1)",
      imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: [-0.1, 0.04, 0, 0, 0])
  }

  /// A ball in free flight (no drag) through the volume.
  func flight(_ frame: Int) -> SIMD3<Double> {
    let t = Double(frame) / fps
    return SIMD3(-1.2 + 5 * t, 0.2 - 0.5 * t, 0.9 + 2.5 * t - 4.905 * t * t)
  }

  func known(_ frames: Range<Int>, except hole: Int, path: (Int) -> SIMD3<Double>) -> [TriangulatedPoint?] {
    frames.map { $0 == hole ? nil : TriangulatedPoint(position: path($0), meanReprojectionPx: 1, viewCount: 3) }
  }

  func detection(_ p: SIMD3<Double>, in camera: Int, offsetPx: Double = 0) -> BallDetection2D {
    let q = cameras[camera].project(p)!
    return BallDetection2D(x: q.x + offsetPx, y: q.y, confidence: 1)
  }

  func testAOneViewFrameOnASmoothPathIsFilledAlongItsRay() throws {
    let hole = 10
    let candidates: (Int) -> [[BallDetection2D]] = { i in
      (0..<4).map { c in i == hole ? (c == 2 ? [self.detection(self.flight(i), in: 2)] : []) : [] }
    }
    let filled = try BallCompletion.fill(
      known(0..<20, except: hole, path: flight), candidates: candidates, cameras: cameras, inlierPx: 6)
    let p = try XCTUnwrap(filled[hole])
    XCTAssertEqual(p.viewCount, 1)
    assertClose(p.position, flight(hole), absolute: 0.005, "a parabola is predicted exactly; the ray fixes the rest")
    // The point lies on the detection's ray: it projects onto the detection.
    let q = cameras[2].project(p.position)!, d = detection(flight(hole), in: 2)
    XCTAssertLessThan(((q - SIMD2(d.x, d.y)) * (q - SIMD2(d.x, d.y))).sum().squareRoot(), 1e-6)
  }

  func testNoFillAcrossABounceNorFromAFarDetection() throws {
    let hole = 10
    // A bounce at frame 9: the ball falls, then rises.
    let bouncing: (Int) -> SIMD3<Double> = { f in
      let t = Double(f - 9) / self.fps
      return SIMD3(0.5 * t, 0, 0.8 + (f < 9 ? -3 * t : 3 * t) - 4.905 * t * t)
    }
    func oneView(_ path: @escaping (Int) -> SIMD3<Double>, _ offset: Double) -> (Int) -> [[BallDetection2D]] {
      { i in (0..<4).map { c in i == hole && c == 1 ? [self.detection(path(i), in: 1, offsetPx: offset)] : [] } }
    }
    let acrossBounce = try BallCompletion.fill(
      known(0..<20, except: hole, path: bouncing), candidates: oneView(bouncing, 0), cameras: cameras, inlierPx: 6)
    XCTAssertNil(acrossBounce[hole])
    let farDetection = try BallCompletion.fill(
      known(0..<20, except: hole, path: flight), candidates: oneView(flight, 40), cameras: cameras, inlierPx: 6)
    XCTAssertNil(farDetection[hole], "a detection 40 px from the prediction is another object")
  }
}
