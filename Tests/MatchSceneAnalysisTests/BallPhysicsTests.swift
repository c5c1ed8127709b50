import MatchSceneAnalysis
import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest

final class BallPhysicsTests: XCTestCase {
  func testDragFreeModelIsAParabola() {
    let model = BallModel(drag: 0)
    let p0 = SIMD3<Double>(-1.2, 0.1, 0.9), v0 = SIMD3<Double>(6, -0.5, 2)
    for t in [0.1, 0.25, 0.4, -0.2] {
      let expected = p0 + v0 * t + 0.5 * SIMD3(0, 0, -9.81) * t * t
      assertClose(model.advance(p0, v0, by: t).0, expected, absolute: 1e-12)
    }
  }

  func testTerminalVelocity() {
    let model = BallModel(drag: 0.126)
    let v = model.advance(SIMD3(0, 0, 100), .zero, by: 10).1
    XCTAssertEqual(-v.z, (9.81 / 0.126).squareRoot(), accuracy: 1e-3)
  }

  func testParabolaFitWithDragOffIsExact() {
    let model = BallModel(drag: 0)
    let p0 = SIMD3<Double>(-1.2, 0.1, 0.9), v0 = SIMD3<Double>(6, -0.5, 2)
    let samples = (0..<20).map { i -> (time: Double, position: SIMD3<Double>) in
      let t = Double(i) / 60
      return (t + 3, p0 + v0 * t + 0.5 * SIMD3(0, 0, -9.81) * t * t)
    }
    let flight = FlightFit.fit(samples, model: model, frames: 180...199)!
    assertClose(flight.position(at: 3), p0, absolute: 1e-9)
    assertClose(flight.velocity(at: 3), v0, absolute: 1e-8)
    XCTAssertLessThan(flight.rms, 1e-9)
  }

  func testDragFitRecoversTheFlightFromNoisyPoints() {
    let model = BallModel(drag: 0.126)
    let p0 = SIMD3<Double>(-1.5, 0.2, 1.0), v0 = SIMD3<Double>(9, -1, 1.5)
    var rng = SeededGenerator(seed: 2)
    var samples: [(time: Double, position: SIMD3<Double>)] = []
    var truth: [SIMD3<Double>] = []
    for i in 0..<24 {
      let t = Double(i) / 60
      let p = model.advance(p0, v0, by: t).0
      truth.append(p)
      samples.append((t, p + 0.004 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    let flight = FlightFit.fit(samples, model: model, frames: 0...23)!
    var fitError = 0.0, rawError = 0.0
    for i in 0..<24 {
      fitError += length(flight.position(at: Double(i) / 60) - truth[i])
      rawError += length(samples[i].position - truth[i])
    }
    XCTAssertLessThan(fitError, 0.5 * rawError)
    assertClose(flight.velocity(at: 0), v0, absolute: 0.15)
  }
}

final class FlightSegmentationTests: XCTestCase {
  /// Three flights: a shot that bounces on the table, then a return hit.
  func testSplitsAtBounceAndHit() {
    let model = BallModel(drag: 0.126)
    let fps = 60.0
    var truth: [(frame: Int, position: SIMD3<Double>)] = []
    var p = SIMD3<Double>(-1.6, 0.1, 1.0), v = SIMD3<Double>(7, -0.3, 0.5)
    var contacts: [Int] = []
    var t = 0.0
    let dt = 1 / 1200.0
    var frame = 0
    while frame < 58 {
      (p, v) = model.advance(p, v, by: dt, step: dt)
      t += dt
      if p.z < 0.78, v.z < 0, abs(p.x) < 1.37 {  // table bounce
        v = SIMD3(v.x * 0.9, v.y * 0.9, -v.z * 0.89)
        contacts.append(Int((t * fps).rounded()))
      }
      if p.x > 1.8, v.x > 0 {  // the opponent hits it back
        v = SIMD3(-8, 0.4, 1.2)
        contacts.append(Int((t * fps).rounded()))
      }
      if t >= Double(frame) / fps {
        truth.append((frame, p))
        frame += 1
      }
    }
    var rng = SeededGenerator(seed: 4)
    let observed = truth.filter { $0.frame % 17 != 5 }.map {
      (frame: $0.frame, position: $0.position + 0.003 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
    let flights = FlightSegmentation(model: model).flights(observed, fps: fps)
    XCTAssertGreaterThanOrEqual(flights.count, contacts.count + 1, "contacts at \(contacts)")
    XCTAssertLessThanOrEqual(flights.count, contacts.count + 2)
    for flight in flights { XCTAssertLessThan(flight.rms, 0.01) }
    // Each true contact lies between two consecutive flights.
    for c in contacts {
      XCTAssertTrue(
        zip(flights, flights.dropFirst()).contains { a, b in a.frames.upperBound <= c + 1 && b.frames.lowerBound >= c - 1 },
        "contact at frame \(c) not between flights \(flights.map(\.frames))")
    }
  }
}

final class EventDetectorTests: XCTestCase {
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)

  func flight(_ p: SIMD3<Double>, _ v: SIMD3<Double>, t0: Double, frames: ClosedRange<Int>) -> BallFlight {
    BallFlight(frames: frames, referenceTime: t0, position: p, velocity: v, rms: 0.002, model: BallModel(drag: 0.126))
  }

  func testBounceHitAndRally() {
    let fps = 60.0
    let model = BallModel(drag: 0.126)
    // Serve-like shot from P1's side at t = 1 s, bouncing on +x half at the contact, returned by P2.
    let p0 = SIMD3<Double>(-1.5, 0, 0.95), v0 = SIMD3<Double>(7, 0, 0.5)
    var dtBounce = 0.0
    while model.advance(p0, v0, by: dtBounce).0.z > 0.78 { dtBounce += 1e-4 }
    let atBounce = model.advance(p0, v0, by: dtBounce)
    let bounceFrame = 60 + Int((dtBounce * fps).rounded(.down))
    let a = flight(p0, v0, t0: 1, frames: 60...bounceFrame)
    let b = flight(atBounce.0, SIMD3(atBounce.1.x, atBounce.1.y, -atBounce.1.z * 0.9), t0: 1 + dtBounce, frames: (bounceFrame + 1)...(bounceFrame + 15))
    var ball: [Int: SIMD3<Double>] = [:]
    for f in 60...(bounceFrame + 15) { ball[f] = (f <= bounceFrame ? a : b).position(at: Double(f) / fps) }
    // The ball then lies still on the floor from frame 150.
    for f in 150...200 { ball[f] = SIMD3(3, 0.5, 0.02) }
    let wrists: [String: [Int: [SIMD3<Double>]]] = [
      "P1": [60: [SIMD3(-1.6, 0.05, 0.95)]], "P2": [60: [SIMD3(1.8, 0, 1.0)]],
    ]
    // Contacts are found between flights; the serve itself is the start of flight a, so add a hit
    // flight before it: the toss.
    let toss = flight(SIMD3(-1.55, 0, 0.90), SIMD3(0, 0, 1.2), t0: 0.7, frames: 40...58)
    for f in 40...58 { ball[f] = toss.position(at: Double(f) / fps) }
    let events = EventDetector(table: table).detect(flights: [toss, a, b], ball: ball, wrists: wrists, fps: fps)
    let types = events.map(\.type)
    XCTAssertEqual(types.first, .rallyStart)
    XCTAssertTrue(types.contains(.hit))
    XCTAssertEqual(events.first { $0.type == .hit }?.track, "P1")
    let bounce = events.first { $0.type == .bounce }
    XCTAssertEqual(bounce?.surface, .table)
    XCTAssertEqual(bounce?.side, TableSide(x: atBounce.0.x))
    XCTAssertEqual(bounce.map { abs($0.time - (1 + dtBounce)) < 0.5 / fps }, true)
    let end = events.first { $0.type == .rallyEnd }
    XCTAssertNotNil(end)
    XCTAssertEqual(end?.rally, 1)
  }
}
