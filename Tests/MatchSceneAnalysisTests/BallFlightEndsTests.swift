@testable import MatchSceneAnalysis
import MatchSceneBallFlight
import MatchSceneCore
import XCTest

/// A fitted flight's ends past a contact are trimmed, and the observations kept there.
final class BallFlightEndsTests: XCTestCase {
  /// A ball falls onto the table (30 frames at 60 fps, ±2 mm noise), bounces, and the two
  /// observations after the bounce were taken into the flight (as the segmentation's gate lets
  /// through): the trimmed fit drops exactly those two, and its path meets the true one within 3 mm
  /// where the whole fit missed by more.
  func testObservationsPastABounceAreTrimmed() {
    let fps = 60.0, model = BallModel(drag: 0.126)
    let p0 = SIMD3(-1.0, 0.1, 1.2), v0 = SIMD3(4.0, 0.2, -1.0)
    var rng = SeededGenerator(seed: 5)
    let frames = 0...31
    var track = MotionTrack(id: "ball", kind: .ball, jointCount: 1, frames: frames)
    var truth: [Int: SIMD3<Double>] = [:]
    let bounceTime = 29.5 / fps
    let (atBounce, vBounce) = model.advance(p0, v0, by: bounceTime)
    for f in frames {
      let t = Double(f) / fps
      let p: SIMD3<Double>
      if t < bounceTime {
        p = model.advance(p0, v0, by: t).0
      } else {
        // Rebound: vertical velocity reversed and damped (restitution 0.9).
        p = model.advance(atBounce, SIMD3(vBounce.x, vBounce.y, -0.9 * vBounce.z), by: t - bounceTime).0
      }
      truth[f] = p
      let noise = SIMD3(rng.uniform(-0.002...0.002), rng.uniform(-0.002...0.002), rng.uniform(-0.002...0.002))
      track[joint: 0, frame: f] = MotionSample(position: p + noise, reprojectionPx: 1, views: 3, state: .measured)
    }
    let samples = frames.map { (time: Double($0) / fps, position: track[joint: 0, frame: $0].position) }
    let whole = FlightFit.fit(samples, model: model, frames: frames)!
    let (trimmed, out) = BallFlightEnds.trimmed(whole, observed: track, fps: fps)
    XCTAssertEqual(out, [30, 31])
    let wholeMiss = length(whole.position(at: 29 / fps) - truth[29]!)
    let trimmedMiss = length(trimmed.position(at: 29 / fps) - truth[29]!)
    XCTAssertLessThan(trimmedMiss, 0.003)
    XCTAssertGreaterThan(wholeMiss, trimmedMiss)
    XCTAssertEqual(trimmed.frames, whole.frames)
  }

  /// A clean flight loses nothing.
  func testACleanFlightIsKeptWhole() {
    let fps = 60.0, model = BallModel(drag: 0.126)
    var rng = SeededGenerator(seed: 6)
    let frames = 0...25
    var track = MotionTrack(id: "ball", kind: .ball, jointCount: 1, frames: frames)
    for f in frames {
      let p = model.advance(SIMD3(-1, 0, 1), SIMD3(5, 0, 1.5), by: Double(f) / fps).0
      let noise = SIMD3(rng.uniform(-0.002...0.002), rng.uniform(-0.002...0.002), rng.uniform(-0.002...0.002))
      track[joint: 0, frame: f] = MotionSample(position: p + noise, reprojectionPx: 1, views: 3, state: .measured)
    }
    let samples = frames.map { (time: Double($0) / fps, position: track[joint: 0, frame: $0].position) }
    let whole = FlightFit.fit(samples, model: model, frames: frames)!
    XCTAssertEqual(BallFlightEnds.trimmed(whole, observed: track, fps: fps).trimmed, [])
  }
}
