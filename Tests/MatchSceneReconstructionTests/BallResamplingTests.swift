import MatchSceneCore
@testable import MatchSceneReconstruction
import XCTest

/// A camera's ball resampled at its clock's phase keeps to the path through a bounce or a
/// hit instead of cutting the corner, against an image path with a known contact.
final class BallResamplingTests: XCTestCase {
  /// Pixels at frame time t: 8, 6 px/frame until the contact at 30.3, then 7, −20 px/frame.
  static let contact = 30.3
  static func path(_ t: Double) -> (x: Double, y: Double) {
    let c = (x: 100 + 8 * contact, y: 300 + 6 * contact)
    return t < contact ? (100 + 8 * t, 300 + 6 * t) : (c.x + 7 * (t - contact), c.y - 20 * (t - contact))
  }

  /// 60 frames of the path with uniform noise of ±`noise` px per coordinate (a fixed LCG: reproducible).
  static func balls(noise: Double, frames: Range<Int> = 0..<60) -> [Int: [BallDetection2D]] {
    var state: UInt64 = 12345
    func uniform() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
    var out: [Int: [BallDetection2D]] = [:]
    for k in frames {
      let p = path(Double(k))
      out[k] = [BallDetection2D(x: p.x + noise * uniform(), y: p.y + noise * uniform())]
    }
    return out
  }

  func error(_ b: BallDetection2D?, at t: Double) throws -> Double {
    let b = try XCTUnwrap(b), p = Self.path(t)
    return ((b.x - p.x) * (b.x - p.x) + (b.y - p.y) * (b.y - p.y)).squareRoot()
  }

  func testAContactInsideTheFrameIsFollowedNotCut() throws {
    let balls = Self.balls(noise: 0)
    let resampled = CameraSync.resampled(CameraDetections(balls: balls), phase: 0.4).balls
    // Frame 30 now shows t = 30.4, just after the contact at 30.3: on the outgoing piece exactly.
    XCTAssertEqual(try error(resampled[30]?.first, at: 30.4), 0, accuracy: 1e-9)
    // A linear interpolation between frames 30 and 31 would be 4.6 px off the path.
    let p0 = balls[30]![0], p1 = balls[31]![0]
    let linear = CameraSync.ballPosition(p0, p1, before: balls[29]![0], after: balls[32]![0], u: 0.4, gate: .infinity)
    XCTAssertGreaterThan(try error(BallDetection2D(x: linear.x, y: linear.y), at: 30.4), 4.5)
    // Away from the contact both agree with the straight path.
    for k in [5, 20, 29, 31, 45] {
      XCTAssertEqual(try error(resampled[k]?.first, at: Double(k) + 0.4), 0, accuracy: 1e-9, "frame \(k)")
    }
    // A negative phase: frame 31 shows t = 30.6, after the contact.
    let back = CameraSync.resampled(CameraDetections(balls: balls), phase: -0.4).balls
    XCTAssertEqual(try error(back[31]?.first, at: 30.6), 0, accuracy: 1e-9)
  }

  func testWithNoiseTheContactStillCostsNoMoreThanTheNoise() throws {
    let noise = 0.5
    let balls = Self.balls(noise: noise)
    // σ of a uniform ±0.5 px is 0.29 px: the gate, 7.4 σ, is about 2 px/frame.
    XCTAssertEqual(CameraSync.contactGate(balls), 7.4 * noise / 3.0.squareRoot(), accuracy: 1.2)
    for phase in [0.2, 0.4, -0.3] {
      let resampled = CameraSync.resampled(CameraDetections(balls: balls), phase: phase).balls
      var worst = 0.0
      for k in 2..<57 { worst = max(worst, try error(resampled[k]?.first, at: Double(k) + phase)) }
      // Extrapolating half a frame from two noisy points: at most 2 × 0.5 √2 px; the corner cut is 4.6 px.
      XCTAssertLessThan(worst, 1.5, "phase \(phase)")
    }
  }

  func testAFalseDetectionIsDroppedButAContactIsNot() throws {
    var balls = Self.balls(noise: 0.5)
    let truth = balls[40]![0]
    balls[40] = [BallDetection2D(x: truth.x + 100, y: truth.y - 20)]
    let resampled = CameraSync.resampled(CameraDetections(balls: balls), phase: 0.3).balls
    // Frames 39 (t = 39.3, far frame 40) and 40 (near frame 40) would both lean on it: each is
    // extrapolated from its other frame instead (39 from 38 → 39, 40 from 42 → 41), on the path.
    XCTAssertLessThan(try error(resampled[39]?.first, at: 39.3), 1.5)
    XCTAssertLessThan(try error(resampled[40]?.first, at: 40.3), 1.5)
    XCTAssertLessThan(try error(resampled[38]?.first, at: 38.3), 1.5)
    XCTAssertLessThan(try error(resampled[41]?.first, at: 41.3), 1.5)
    // The detections either side of the contact (frames 30 and 31) are no spikes.
    let gate = CameraSync.contactGate(balls)
    for k in 28...33 { XCTAssertFalse(CameraSync.isSpike(balls[k]![0], at: k, in: balls, gate: gate), "frame \(k)") }
    XCTAssertTrue(CameraSync.isSpike(balls[40]![0], at: 40, in: balls, gate: gate))
  }

  func testAShortTrackOrMissingNeighboursStayLinear() throws {
    // Fewer than 20 second differences: no noise estimate, no contact model.
    XCTAssertEqual(CameraSync.contactGate(Self.balls(noise: 0, frames: 25..<40)), .infinity)
    // Frame 32 missing: the interval [30, 31] has no neighbour after it, so it is interpolated linearly.
    var balls = Self.balls(noise: 0)
    balls[32] = nil
    let resampled = CameraSync.resampled(CameraDetections(balls: balls), phase: 0.4).balls
    let p0 = balls[30]![0], p1 = balls[31]![0]
    let b = try XCTUnwrap(resampled[30]?.first)
    XCTAssertEqual(b.x, p0.x + 0.4 * (p1.x - p0.x), accuracy: 1e-9)
    XCTAssertEqual(b.y, p0.y + 0.4 * (p1.y - p0.y), accuracy: 1e-9)
  }

  func testADroppedDetectionIsExtrapolatedFromTheNearFrame() throws {
    var balls = Self.balls(noise: 0)
    balls[45] = nil
    let resampled = CameraSync.resampled(CameraDetections(balls: balls), phase: 0.4).balls
    // Frame 44 shows t = 44.4: from 44 along the velocity 43 → 44, on the path.
    XCTAssertEqual(try error(resampled[44]?.first, at: 44.4), 0, accuracy: 1e-9)
    // Frame 45 itself is missing, and so is its resampled ball.
    XCTAssertNil(resampled[45])
    // Backwards: at phase −0.3, frame 46 shows t = 45.7, nearest 46, extrapolated back along 46 → 47.
    let back = CameraSync.resampled(CameraDetections(balls: balls), phase: -0.3).balls
    XCTAssertEqual(try error(back[46]?.first, at: 45.7), 0, accuracy: 1e-9)
    // With no neighbour on the far side either, nothing.
    balls[43] = nil
    XCTAssertNil(CameraSync.resampled(CameraDetections(balls: balls), phase: 0.4).balls[44])
  }
}
