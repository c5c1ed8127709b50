import MatchSceneBallFlight
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneGeometry
import MatchScenePipeline
import MatchSceneReconstruction
import XCTest

/// A ball flight fitted to each camera's 2D detections at that camera's own instants
/// (`AsynchronousFlightFit`) recovers the true flight from a start off by millimetres, on
/// four cameras with whole-frame offsets and sub-frame phases, and leaves a flight it cannot improve
/// unchanged.
final class AsynchronousFlightFitTests: XCTestCase {
  static let fps = 60.0
  static let model = BallModel(drag: 0.12)
  /// The true flight: 4.5 m/s along venue x, rising, state at match frame 15.
  static let truth = BallFlight(
    frames: 0...30, referenceTime: 15 / fps, position: SIMD3(-0.4, 0.1, 0.35), velocity: SIMD3(4.5, 0.4, 1.2),
    rms: 0, model: model)
  /// Venue to calibration world: a quarter turn about the vertical and a shift (not the identity, so a
  /// frame mix-up shows).
  static let worldFromVenue = RigidTransform(
    rotation: Matrix3(rowMajor: [0, -1, 0, 1, 0, 0, 0, 0, 1]), translation: SIMD3(0.3, -0.2, 0))
  /// (whole-frame offset, phase) per camera: the first is the match's clock.
  static let clocks: [(frames: Int, phase: Double)] = [(0, 0), (12, 0.37), (-7, -0.41), (25, 0.18)]

  static func cameras() -> [Camera] {
    (0..<4).map { i in
      let a = 2 * Double.pi * (Double(i) + 0.5) / 4
      return Camera.lookingAt(
        SIMD3(0, 0, 0.8), from: SIMD3(4.5 * cos(a), 4.5 * sin(a), 2.4), name: "cam\(i + 1)",
        imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: [-0.1, 0.04, 0, 0, 0])
    }
  }

  /// Every camera's ball by its own frame: the true flight at the camera's instant k − offset − phase,
  /// projected, plus uniform noise of ±`noise` px (a fixed LCG) and, at every fifth frame, a false
  /// candidate 60 px away. Frames whose instant falls outside the flight show the ball 40 px off its
  /// path (the other side of a contact).
  static func rawBalls(noise: Double) -> [String: [Int: [BallDetection2D]]] {
    var state: UInt64 = 99
    func uniform() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
    var out: [String: [Int: [BallDetection2D]]] = [:]
    for (camera, clock) in zip(cameras(), clocks) {
      var balls: [Int: [BallDetection2D]] = [:]
      for k in (-3 + clock.frames)...(33 + clock.frames) {
        let instant = Double(k) - Double(clock.frames) - clock.phase
        let venue = truth.position(at: instant / fps)
        guard var px = camera.project(worldFromVenue.apply(venue)) else { continue }
        if instant < 0 || instant > 30 { px.y += 40 }
        px += SIMD2(noise * uniform(), noise * uniform())
        var candidates = [BallDetection2D(x: px.x, y: px.y)]
        if k % 5 == 0 { candidates.insert(BallDetection2D(x: px.x + 60, y: px.y - 10), at: 0) }
        balls[k] = candidates
      }
      out[camera.name] = balls
    }
    return out
  }

  static func fit(noise: Double, cameras: [Camera] = cameras()) -> AsynchronousFlightFit {
    let names = cameras.map(\.name)
    return AsynchronousFlightFit(
      cameras: cameras, rawBalls: rawBalls(noise: noise).filter { names.contains($0.key) },
      frameOffsets: Dictionary(uniqueKeysWithValues: zip(names, clocks.map(\.frames))),
      phases: Dictionary(uniqueKeysWithValues: zip(names, clocks.map(\.phase))),
      worldFromVenue: worldFromVenue, fps: fps)
  }

  /// The true flight with its state moved by 6 mm and 0.06 m/s: a flight fitted to positions
  /// triangulated from detections resampled to the match's instants is off by about that much.
  static var start: BallFlight {
    var s = truth
    s.position += SIMD3(0.004, -0.003, 0.003)
    s.velocity += SIMD3(-0.04, 0.03, 0.03)
    return s
  }

  static func worstError(_ flight: BallFlight) -> Double {
    (0...30).map { length(flight.position(at: Double($0) / fps) - truth.position(at: Double($0) / fps)) }.max()!
  }

  func testRecoversTheTrueFlightFromEveryCamerasOwnInstants() {
    XCTAssertGreaterThan(Self.worstError(Self.start), 0.006)
    // Exact detections: the flight itself (the false candidates and the frames past the span ignored).
    let exact = Self.fit(noise: 0).refit(Self.start, span: 0...30)
    XCTAssertLessThan(Self.worstError(exact), 1e-5)
    // ±0.5 px of noise (about 1.5 mm at 4.5 m): within half a millimetre everywhere.
    let noisy = Self.fit(noise: 0.5).refit(Self.start, span: 0...30)
    XCTAssertLessThan(Self.worstError(noisy), 0.0005)
  }

  func testTheSpanBoundsTheEvidence() {
    // Only frames 5...25: the frames past them (40 px off, as past a contact) never pull the flight.
    let inner = Self.fit(noise: 0).refit(Self.start, span: 5...25)
    XCTAssertLessThan(Self.worstError(inner), 1e-5)
  }

  func testAFlightItCannotImproveIsUnchanged() {
    // One camera: its depth is not observed.
    let one = Self.fit(noise: 0, cameras: [Self.cameras()[1]]).refit(Self.start, span: 0...30)
    XCTAssertEqual(one.position, Self.start.position)
    XCTAssertEqual(one.velocity, Self.start.velocity)
    // Too short a span for the minimum number of detections.
    let short = Self.fit(noise: 0).refit(Self.start, span: 10...10)
    XCTAssertEqual(short.position, Self.start.position)
    // A start far off (15 cm): no candidate within the gate, nothing to fit.
    var far = Self.start
    far.position.z += 0.15
    let refused = Self.fit(noise: 0).refit(far, span: 0...30)
    XCTAssertEqual(refused.position, far.position)
  }
}
