import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest

/// Spin fitted per flight with the Magnus term, chosen by the F-test, and the drag estimated from a
/// match's own flights: known flights are simulated with the flight model, observed with noise, and
/// fitted back.
final class FlightSpinTests: XCTestCase {
  /// k_M of a table-tennis ball (C_M 0.2, 40 mm, 2.7 g, ρ 1.204).
  static let magnus = BallModel.magnusConstant(coefficient: 0.2, airDensity: 1.204, radius: 0.02, mass: 0.0027)

  /// 0.5 s of a flight from `p0`, `v0` with `model`, at 60 fps, each position with Gaussian noise `sigma`.
  func samples(_ model: BallModel, p0: SIMD3<Double>, v0: SIMD3<Double>, sigma: Double, seed: UInt64, duration: Double = 0.5)
    -> [(time: Double, position: SIMD3<Double>)]
  {
    var rng = SeededGenerator(seed: seed)
    let count = Int(duration * 60)
    let positions = model.positions(from: p0, v0, at: (0..<count).map { Double($0) / 60 })
    return positions.enumerated().map { i, p in
      (Double(i) / 60 + 2, p + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
  }

  func testTopspinAndSidespinAreRecovered() throws {
    let revolution = 2 * Double.pi
    // A forehand loop along +x: 100 rev/s topspin (axis +y) and 30 rev/s sidespin.
    let truth = BallModel(drag: 0.13, magnus: Self.magnus, spin: SIMD3(0, 100, 30) * revolution)
    let observed = samples(truth, p0: SIMD3(-1.6, 0.1, 1.0), v0: SIMD3(9, 0.4, 1.2), sigma: 0.002, seed: 3)
    let fitted = try XCTUnwrap(FlightFit.fitTestingSpin(observed, model: BallModel(drag: 0.13, magnus: Self.magnus), frames: 120...149))
    let spin = try XCTUnwrap(fitted.spin, "a spinning ball's flight keeps its spin")
    XCTAssertEqual(spin.report.topspin, 100, accuracy: 5)
    XCTAssertEqual(spin.report.sidespin, 30, accuracy: 5)
    XCTAssertLessThan(spin.report.uncertainty, 3)
    // `rms` is of the 3D distance: σ√3 ≈ 3.5 mm for 2 mm per axis.
    XCTAssertLessThan(fitted.rms, 0.004)
  }

  func testSpinlessFlightsGetNoSpin() {
    let model = BallModel(drag: 0.13, magnus: Self.magnus)
    var spun = 0
    for seed in 1...40 {
      let v0 = SIMD3<Double>(6 + Double(seed % 5), Double(seed % 3) - 1, 1.5)
      let observed = samples(model, p0: SIMD3(-1.5, 0, 1.0), v0: v0, sigma: 0.002, seed: UInt64(seed))
      if FlightFit.fitTestingSpin(observed, model: model, frames: 0...29)?.spin != nil { spun += 1 }
    }
    // The test's 0.1 % level: none expected among 40.
    XCTAssertEqual(spun, 0)
  }

  func testDragEstimateFindsTheMatchesDrag() {
    let trueDrag = 0.126 * 1.18
    let truth = BallModel(drag: trueDrag, magnus: Self.magnus)
    let sport = BallModel(drag: 0.126, magnus: Self.magnus)
    var observations: [(frame: Int, position: SIMD3<Double>)] = []
    var flights: [BallFlight] = []
    for k in 0..<30 {
      let v0 = SIMD3<Double>(k % 2 == 0 ? 8 : -8, Double(k % 3) - 1, 1.2)
      let first = 60 * k
      let observed = samples(truth, p0: SIMD3(k % 2 == 0 ? -1.5 : 1.5, 0, 1.0), v0: v0, sigma: 0.002, seed: UInt64(k + 7))
      for (i, s) in observed.enumerated() { observations.append((first + i, s.position)) }
      let timed = observed.enumerated().map { (time: Double(first + $0.offset) / 60, position: $0.element.position) }
      flights.append(FlightFit.fit(timed, model: sport, frames: first...(first + observed.count - 1))!)
    }
    let estimate = DragEstimate.estimate(flights: flights, observations: observations, fps: 60, model: sport) { _ in 0.05 }
    XCTAssertEqual(estimate.drag, trueDrag, accuracy: 3 * estimate.uncertainty + 1e-3, "\(estimate)")
    XCTAssertLessThan(estimate.uncertainty, 0.01)
    XCTAssertEqual(estimate.flights, 30)
  }
}
