@testable import MatchSceneAnalysis
import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest

/// The spin across bounces: a flight's spin axes are taken at its launch, and the sidespin — which a
/// bounce on a horizontal surface does not change (Nakashima et al., ACC 2010) — is shared by the
/// flights a chain of bounces joins. Small constructed flights and spins; no spawns.
final class BounceSpinTests: XCTestCase {
  static let revolution = 2 * Double.pi

  func spin(top: Double, side: Double, uncertainty: Double) -> FlightSpin {
    let r = Self.revolution
    return FlightSpin(topspin: top * r, sidespin: side * r, angularVelocity: SIMD3(0, top * r, side * r), uncertainty: uncertainty * r)
  }

  /// A ball leaving a floor bounce at 2.2 m/s horizontally with backspin, high and slow: drag and the
  /// backspin's lift against its travel bring it below
  /// `FlightSpin.minimumHorizontalSpeed` by the middle of the flight, yet its spin bends the path by
  /// centimetres. Its axes are those of its launch, so the spin is fitted.
  func testAFlightSlowedBelowTheMinimumSpeedByItsMiddleShowsItsSpin() throws {
    let magnus = BallModel.magnusConstant(coefficient: 0.2, airDensity: 1.204, radius: 0.02, mass: 0.0027)
    let truth = BallModel(drag: 0.15, magnus: magnus, spin: SIMD3(0, -40, -35) * Self.revolution)
    let v0 = SIMD3<Double>(2.2, 0, 3.2)
    var rng = SeededGenerator(seed: 11)
    let times = (0..<38).map { Double($0) / 60 }
    let observed = truth.positions(from: SIMD3(4, 0, 0.02), v0, at: times).enumerated().map { i, p in
      (time: times[i] + 6, position: p + 0.002 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
    let model = BallModel(drag: 0.15, magnus: magnus)
    let plain = try XCTUnwrap(FlightFit.fit(observed, model: model, frames: 360...397))
    XCTAssertLessThan(length(SIMD3(plain.velocity.x, plain.velocity.y, 0)), FlightSpin.minimumHorizontalSpeed, "slowed by its middle")
    let fitted = try XCTUnwrap(FlightFit.fitTestingSpin(observed, model: model, frames: 360...397))
    let spin = try XCTUnwrap(fitted.spin, "the spin test keeps the spin of a flight launched at 2.2 m/s")
    XCTAssertEqual(spin.report.topspin, -40, accuracy: 5)
    XCTAssertEqual(spin.report.sidespin, -35, accuracy: 5)
  }

  func testSidespinIsSharedAcrossABounce() {
    // A well-measured flight before the bounce and a short, poorly measured one after it.
    let shared = FlightSpin.sharedSidespin([spin(top: 40, side: 30, uncertainty: 1), spin(top: 30, side: 45, uncertainty: 6)])
    XCTAssertEqual(shared[0].sidespin / Self.revolution, 30 + 15 / 37, accuracy: 1e-9, "inverse-variance weights 36 : 1")
    XCTAssertEqual(shared[1].sidespin, shared[0].sidespin)
    XCTAssertEqual(shared[1].angularVelocity.z, shared[1].sidespin, "ω about ẑ is the sidespin")
    XCTAssertEqual(shared[1].topspin / Self.revolution, 30, accuracy: 1e-9, "a bounce changes the topspin: each keeps its own")
  }

  func testDisagreeingSidespinsAreNotShared() {
    let spins = [spin(top: 40, side: 30, uncertainty: 1), spin(top: 30, side: -20, uncertainty: 2)]
    XCTAssertEqual(FlightSpin.sharedSidespin(spins), spins)
    XCTAssertEqual(FlightSpin.sharedSidespin([spins[0]]), [spins[0]])
  }

  /// Three flights: a bounce joins the first two, a stroke the last two; only the first two share.
  func testFlightsShareTheirSidespinAtBouncesOnly() {
    func flight(_ frames: ClosedRange<Int>, _ spin: FlightSpin?) -> BallFlight {
      BallFlight(frames: frames, referenceTime: 0, position: .zero, velocity: SIMD3(5, 0, 0), rms: 0.002,
                 model: BallModel(drag: 0.13), spin: spin)
    }
    let flights = [
      flight(0...20, spin(top: 40, side: 30, uncertainty: 1)), flight(22...40, spin(top: 30, side: 34, uncertainty: 2)),
      flight(42...70, spin(top: -20, side: 10, uncertainty: 1)),
    ]
    let events = [
      MatchEvent(type: .bounce, frame: 21, time: 21 / 60), MatchEvent(type: .hit, frame: 41, time: 41 / 60),
    ]
    let shared = FlightSpinEvents.sharingSidespin(flights, events: events)
    XCTAssertEqual(shared[0].spin!.sidespin / Self.revolution, 30.8, accuracy: 1e-9)
    XCTAssertEqual(shared[1].spin!.sidespin, shared[0].spin!.sidespin)
    XCTAssertEqual(shared[2].spin, flights[2].spin, "a stroke gives the ball a new spin")
    let attached = FlightSpinEvents.attach(to: events, flights: flights)
    XCTAssertEqual(attached[0].spin!.sidespin, 30.8, accuracy: 1e-9)
    XCTAssertEqual(attached[1].spin!.sidespin, 10, accuracy: 1e-9)
  }

  func testAFlightAfterASpinningBallsBounceReportsTheSpinItsSamplesGive() {
    func flight(_ frames: ClosedRange<Int>, _ spin: FlightSpin?, candidate: FlightSpin? = nil) -> BallFlight {
      var f = BallFlight(frames: frames, referenceTime: 0, position: .zero, velocity: SIMD3(5, 0, 0), rms: 0.002,
                         model: BallModel(drag: 0.13), spin: spin)
      f.spinCandidate = candidate
      return f
    }
    // The second flight's samples alone did not pass the test; it follows a bounce of a spinning
    // ball and reports its own fit, the sidespin shared. The fourth follows a hit and stays spinless.
    let flights = [
      flight(0...20, spin(top: 40, side: 30, uncertainty: 1)), flight(22...40, nil, candidate: spin(top: 25, side: 20, uncertainty: 10)),
      flight(42...70, nil, candidate: spin(top: 10, side: 5, uncertainty: 12)),
      flight(72...90, nil, candidate: spin(top: 9, side: 4, uncertainty: 12)),
    ]
    let events = [
      MatchEvent(type: .bounce, frame: 21, time: 21 / 60), MatchEvent(type: .bounce, frame: 41, time: 41 / 60),
      MatchEvent(type: .hit, frame: 71, time: 71 / 60),
    ]
    let shared = FlightSpinEvents.sharingSidespin(flights, events: events)
    XCTAssertEqual(shared[1].spin?.topspin ?? 0, 25 * Self.revolution, accuracy: 1e-9)
    XCTAssertEqual(shared[1].spin?.sidespin ?? 0, shared[0].spin!.sidespin)
    XCTAssertNotNil(shared[2].spin, "a bounce chain carries on")
    XCTAssertNil(shared[3].spin, "a stroke is not a bounce")
  }
}
