@testable import MatchSceneAnalysis
@testable import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneMotion
@testable import MatchSceneBallPlay
import MatchSceneIO

/// A ball settling on the table top after the point: hops of a few centimetres, then a roll. Bounces
/// whose rebound lifts the ball at least 1 cm are events (as the simulator's truth counts them).
final class SettlingBallTests: XCTestCase {
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)
  let fps = 60.0
  let model = BallModel(drag: 0.126)

  /// Drops the ball 6 cm onto the table at (0.3, 0.4), moving 0.3 m/s along x, restitution 0.7: hops of
  /// 2.9, 1.45, 0.7, 0.35… cm, then it rolls. Returns the observations (σ = 2 mm, every 13th frame
  /// missed) and the frames of the bounces that hop at least 1 cm.
  func settlingBall(seed: UInt64) -> (observations: [(frame: Int, position: SIMD3<Double>)], bounces: [Int]) {
    let rest = table.surfaceHeight + table.ballRadius
    let (truth, bounces) = bouncingBall(
      from: SIMD3(0.3, 0.4, rest + 0.06), velocity: SIMD3(0.3, 0, 0), rest: rest, restitution: 0.7, frames: 90)
    var rng = SeededGenerator(seed: seed)
    let observations = truth.indices.filter { $0 % 13 != 7 }.map {
      (frame: $0, position: truth[$0] + 0.002 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
    return (observations, bounces)
  }

  func detectedBounces(
    _ observations: [(frame: Int, position: SIMD3<Double>)], surfaces: BallSurfaces?, hops: Bool = true, lostBalls: Bool = true
  ) -> [Int] {
    let flights = FlightSegmentation(model: model, surfaces: surfaces).flights(observations, fps: fps)
    let ball = Dictionary(observations.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    var options = EventDetectionOptions()
    if !hops { options.settlingHops = nil }
    options.bouncesOfLostBalls = lostBalls
    return EventDetector(table: table, options: options).detect(flights: flights, ball: ball, wrists: [:], fps: fps)
      .filter { $0.type == .bounce }.map(\.frame)
  }

  func testEveryHopOfACentimetreIsABounceAndTheRollIsNot() {
    for seed in [1, 2, 3] as [UInt64] {
      let (observations, truth) = settlingBall(seed: seed)
      XCTAssertEqual(truth.count, 2, "the drop (a 2.9 cm hop follows), then a 1.45 cm hop")
      let detected = detectedBounces(observations, surfaces: BallSurfaces(ballRadius: 0.02, table: table))
      XCTAssertEqual(detected.count, truth.count, "seed \(seed): detected \(detected), true \(truth)")
      for (d, t) in zip(detected, truth) { XCTAssertLessThanOrEqual(abs(d - t), 2, "seed \(seed): \(detected) vs \(truth)") }
    }
  }

  func testWithoutSurfacesSmallHopsAreMissed() {
    // The gate alone (3.5 cm) does not see where the 1.45 cm hop starts and ends: one flight spans
    // hops and roll, and its contacts fall in the wrong places (the hop chain, off here, would find them).
    for seed in [1, 2, 3] as [UInt64] {
      let (observations, truth) = settlingBall(seed: seed)
      let detected = detectedBounces(observations, surfaces: nil, hops: false)
      XCTAssertFalse(detected.count == truth.count && zip(detected, truth).allSatisfy { abs($0 - $1) <= 2 }, "seed \(seed)")
    }
  }

  func testAStillBallIsNotBouncing() {
    var rng = SeededGenerator(seed: 7)
    let observations = (0..<240).map { f in
      (frame: f, position: SIMD3<Double>(3.2, -1.1, 0.02) + 0.004 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
    let surfaces = BallSurfaces(ballRadius: 0.02, table: table)
    XCTAssertEqual(detectedBounces(observations, surfaces: surfaces), [])
  }

  func testPenetrationIsMeasuredFromTheSurfaceUnderTheBall() {
    let surfaces = BallSurfaces(ballRadius: 0.02, table: table)
    assertClose(surfaces.penetration(SIMD3(0.5, 0.2, 0.77)), 0.01, absolute: 1e-12)  // in the table top
    assertClose(surfaces.penetration(SIMD3(0.5, 0.2, 0.60)), 0.02 - 0.60, absolute: 1e-12)  // under the table
    assertClose(surfaces.penetration(SIMD3(2.0, 0.2, 0.01)), 0.01, absolute: 1e-12)  // in the floor
    XCTAssertTrue(surfaces.isNetHeight(SIMD3(0, 0.8, 0.85)))
    XCTAssertFalse(surfaces.isNetHeight(SIMD3(0, 0.2, 0.95)))
    XCTAssertFalse(BallSurfaces(ballRadius: 0.02).isNetHeight(SIMD3(0, 0.2, 0.85)))
  }

  func testTwoBouncesCloserThanTheSmallestHopAreOne() {
    func bounce(_ t: Double, _ surface: BounceSurface) -> MatchEvent {
      MatchEvent(type: .bounce, frame: Int(t * 60), time: t, surface: surface)
    }
    let events = [
      bounce(1.0, .floor), bounce(1.05, .floor),  // 50 ms: a 1 cm hop takes 90 ms
      bounce(1.2, .floor), bounce(1.25, .table),  // another surface
      MatchEvent(type: .hit, frame: 79, time: 1.27), bounce(1.30, .table),  // a stroke between
    ]
    let kept = EventDetector.oneBouncePerHop(events, minimumHop: 0.01)
    XCTAssertEqual(kept.map(\.time), [1.0, 1.2, 1.25, 1.27, 1.30])
  }

  func testANetTouchBeforeABounceOnTheHalfTheBallCameFrom() {
    let detector = EventDetector(table: table)
    let surfaces = BallSurfaces(ballRadius: 0.02, table: table)
    func incoming(height: Double) -> BallFlight {
      BallFlight(
        frames: 60...66, referenceTime: 1, position: SIMD3(1.2, 0.1, height), velocity: SIMD3(-8, 0, 0.3), rms: 0.002,
        model: model)
    }
    // Low over the net: it touches the net (centre one radius from its plane) and drops on its own half.
    let touch = detector.netTouch(
      before: incoming(height: 0.95), bounceTime: 1.3, bouncePosition: SIMD3(0.05, 0.1, 0.78), surfaces: surfaces, fps: fps)
    XCTAssertNotNil(touch)
    if let (t, p) = touch {
      XCTAssertEqual(p.x, 0.02, accuracy: 1e-6)
      XCTAssertGreaterThan(t, 1.1)
      XCTAssertLessThan(t, 1.2)
    }
    // Bouncing on the far half: it went over.
    XCTAssertNil(
      detector.netTouch(
        before: incoming(height: 0.95), bounceTime: 1.3, bouncePosition: SIMD3(-0.4, 0.1, 0.78), surfaces: surfaces, fps: fps))
    // Above the net's top (0.9325 m for the ball's centre): no touch.
    XCTAssertNil(
      detector.netTouch(
        before: incoming(height: 1.1), bounceTime: 1.3, bouncePosition: SIMD3(0.05, 0.1, 0.78), surfaces: surfaces, fps: fps))
  }
}

/// Without a table (every sport but table tennis) the analysis fits the ball's flights and reports no
/// table events, only the rallies the ball's rests and losses bound.
final class AnalysisWithoutTableTests: XCTestCase {
  func testBallFlightsAreFittedAndNoEventsFound() {
    let fps = 60.0
    let model = BallModel(drag: 0.0097)  // a tennis ball
    let p0 = SIMD3<Double>(-10, 0.5, 1.2), v0 = SIMD3<Double>(25, 0, 4)
    var points: [TrackPoint] = []
    var rng = SeededGenerator(seed: 11)
    for frame in 0..<30 where frame != 14 {
      let p = model.advance(p0, v0, by: Double(frame) / fps).0 + 0.004 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
      points.append(
        TrackPoint(frame: frame, time: Double(frame) / fps, track: "ball", kind: .ball, joint: "ball", position: p, reprojectionPx: 0.5, views: 3))
    }
    // A lone sighting later, in no flight: still reported (there are no rallies to bound the ball).
    points.append(
      TrackPoint(frame: 60, time: 1, track: "ball", kind: .ball, joint: "ball", position: SIMD3(3, 1, 0.0335), reprojectionPx: 0.5, views: 2))
    let analyser = MatchAnalyzer(table: nil, ball: model, ballRadius: 0.0335)
    let result = analyser.run(MotionModel(points: points, fps: fps, skeleton: Skeleton.builtIn["coco17"]!))
    // No table events; one rally (no rule engine: the ball in play from its first sighting, not lost
    // for 1 s, to its last), no rest.
    XCTAssertEqual(result.events.map(\.type), [.rallyStart, .rallyEnd])
    XCTAssertEqual(result.events.map(\.frame), [0, 60])
    XCTAssertEqual(result.flights.count, 1)
    let ball = Dictionary(result.motion.rows.filter { $0.kind == .ball }.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(Set(ball.keys), Set(0..<30).union([60]), "every frame seen, and the missed one filled")
    for (frame, p) in ball where frame < 30 {
      XCTAssertLessThan(length(p - model.advance(p0, v0, by: Double(frame) / fps).0), 0.004, "frame \(frame)")
    }
  }
}

/// A stroke played just above the table: with the ball coming down onto the table first (a
/// half-volley) it is a bounce then a hit; taken before it lands, a hit alone — though both contacts
/// lie within the bounce tolerance of the table top.
final class LowStrokeTests: XCTestCase {
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)
  let fps = 60.0

  /// Events of an incoming flight with state (`incoming`, (6, 0, `vz`)) and an outgoing one with state
  /// ((1.2, 0, 0.84), (−6, 0, 1.5)), both at t = 1.2 s (frame 72), P2's wrist 12 cm from the contact.
  func events(incoming: SIMD3<Double>, vz: Double) -> [MatchEvent] {
    let model = BallModel(drag: 0.126)
    let a = BallFlight(frames: 60...71, referenceTime: 1.2, position: incoming, velocity: SIMD3(6, 0, vz), rms: 0.002, model: model)
    let b = BallFlight(frames: 73...90, referenceTime: 1.2, position: SIMD3(1.2, 0, 0.84), velocity: SIMD3(-6, 0, 1.5), rms: 0.002, model: model)
    var ball: [Int: SIMD3<Double>] = [:]
    for f in a.frames { ball[f] = a.position(at: Double(f) / fps) }
    for f in b.frames { ball[f] = b.position(at: Double(f) / fps) }
    let wrists: [String: [Int: [SIMD3<Double>]]] = ["P2": [72: [SIMD3(1.3, 0.05, 0.9)]], "P1": [72: [SIMD3(-1.8, 0, 1.0)]]]
    return EventDetector(table: table).detect(flights: [a, b], ball: ball, wrists: wrists, fps: fps)
  }

  func testAHalfVolleyIsABounceThenAHit() {
    // The incoming path is 2 cm into the table top at the stroke: it landed about 1.5 frames before.
    let found = events(incoming: SIMD3(1.2, 0, 0.76), vz: -3).filter { $0.type == .bounce || $0.type == .hit }
    XCTAssertEqual(found.map(\.type), [.bounce, .hit])
    XCTAssertEqual(found.first?.surface, .table)
    XCTAssertEqual(found.last?.track, "P2")
    XCTAssertLessThan(found[0].time, found[1].time)
  }

  func testALowStrokeAboveTheTableIsAHitAlone() {
    let found = events(incoming: SIMD3(1.2, 0, 0.83), vz: -1).filter { $0.type == .bounce || $0.type == .hit }
    XCTAssertEqual(found.map(\.type), [.hit])
    XCTAssertEqual(found.first?.track, "P2")
  }
}
