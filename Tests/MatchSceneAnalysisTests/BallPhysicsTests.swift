import MatchSceneAnalysis
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
