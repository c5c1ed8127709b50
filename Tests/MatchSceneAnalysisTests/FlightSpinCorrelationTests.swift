import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest

/// The spin test under correlated residuals: a calibration fault moves the triangulated ball smoothly,
/// so the residuals along a flight are correlated and the white-noise F-test takes that smooth error
/// for spin. Small flights are built with the flight model, given a smooth error and noise, and fitted.
final class FlightSpinCorrelationTests: XCTestCase {
  static let magnus = FlightSpinTests.magnus

  /// `count` samples at 60 fps of the flight from `p0`, `v0` under `model`, each moved by `bias(t)`
  /// (t: seconds from the first sample) and Gaussian noise `sigma` per axis.
  func samples(
    _ model: BallModel, p0: SIMD3<Double>, v0: SIMD3<Double>, count: Int, sigma: Double, seed: UInt64,
    bias: (Double) -> SIMD3<Double> = { _ in .zero }
  ) -> [(time: Double, position: SIMD3<Double>)] {
    var rng = SeededGenerator(seed: seed)
    let times = (0..<count).map { Double($0) / 60 }
    return zip(times, model.positions(from: p0, v0, at: times)).map { t, p in
      (t + 5, p + bias(t) + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
  }

  func testVarianceInflationOfAnAR1Process() {
    XCTAssertEqual(FlightFit.varianceInflation(residualCorrelation: 0), 1)
    XCTAssertEqual(FlightFit.varianceInflation(residualCorrelation: 0.5), 3, accuracy: 1e-12)
    // Negative correlation does not make a fit more certain; beyond the maximum the factor stops.
    XCTAssertEqual(FlightFit.varianceInflation(residualCorrelation: -0.4), 1)
    XCTAssertEqual(FlightFit.varianceInflation(residualCorrelation: 0.99), 19, accuracy: 1e-9)
    XCTAssertEqual(FlightFit.varianceInflation(residualCorrelation: .nan), 1)
  }

  func testResidualsOfWhiteNoiseAreUncorrelatedAndOfASmoothErrorCorrelated() throws {
    let model = BallModel(drag: 0.13)
    let p0 = SIMD3(-1.4, 0.2, 0.9), v0 = SIMD3(7.0, -0.5, 1.4)
    let white = samples(model, p0: p0, v0: v0, count: 40, sigma: 0.002, seed: 5)
    let whiteFit = try XCTUnwrap(FlightFit.fit(white, model: model, frames: 0...39))
    XCTAssertEqual(FlightFit.residualAutocorrelation(whiteFit, samples: white), 0, accuracy: 0.25)
    // A 4 mm wave over the flight, the way a camera's pose error bends a triangulated path.
    let smooth = samples(model, p0: p0, v0: v0, count: 40, sigma: 0.0005, seed: 5) { t in
      SIMD3(0, 0.004 * sin(2 * Double.pi * t / 0.5), 0.003 * cos(2 * Double.pi * t / 0.4))
    }
    let smoothFit = try XCTUnwrap(FlightFit.fit(smooth, model: model, frames: 0...39))
    XCTAssertGreaterThan(FlightFit.residualAutocorrelation(smoothFit, samples: smooth), 0.6)
  }

  func testASampleBeforeTheBounceIsNotSpin() {
    // Spinless flights after a table bounce whose first sample was taken a fraction of a frame before
    // the contact, on the way down: the V of the bounce is centimetres off the outgoing path, which a
    // spin term bends towards.
    let model = BallModel(drag: 0.13, magnus: Self.magnus)
    var spun: [String] = []
    for seed in 1...12 {
      let count = 14 + (seed % 4) * 6
      let before = 0.2 + 0.05 * Double(seed % 7)
      let bounce = SIMD3<Double>(-0.6, 0.1 * Double(seed % 3), 0.78)
      let incoming = SIMD3<Double>(5 + Double(seed % 4), 0.3, -3), outgoing = SIMD3<Double>(4.5 + Double(seed % 4), 0.3, 2.6)
      var observed = samples(model, p0: bounce + outgoing * (1 - before) / 60, v0: outgoing, count: count, sigma: 0.001, seed: UInt64(seed))
        .map { (time: $0.time + 1.0 / 60, position: $0.position) }
      observed.insert((time: 5, position: bounce - incoming * before / 60), at: 0)
      if let spin = FlightFit.fitTestingSpin(observed, model: model, frames: 0...count)?.spin {
        spun.append("seed \(seed), \(count + 1) samples: \(spin.report)")
      }
    }
    XCTAssertEqual(spun, [])
  }

  func testStrongSpinIsKeptUnderASmoothErrorWithAnHonestUncertainty() throws {
    let revolution = 2 * Double.pi
    let truth = BallModel(drag: 0.13, magnus: Self.magnus, spin: SIMD3(0, 80, -25) * revolution)
    let observed = samples(truth, p0: SIMD3(-1.5, 0.1, 1.0), v0: SIMD3(9, 0.3, 1.0), count: 30, sigma: 0.001, seed: 9) { t in
      SIMD3(0, 0.003 * sin(2 * Double.pi * t / 0.45), 0.002 * cos(2 * Double.pi * t / 0.35))
    }
    let fitted = try XCTUnwrap(FlightFit.fitTestingSpin(observed, model: BallModel(drag: 0.13, magnus: Self.magnus), frames: 0...29))
    let spin = try XCTUnwrap(fitted.spin, "80 rev/s of topspin is far above a few millimetres of smooth error")
    let report = spin.report
    XCTAssertEqual(report.topspin, 80, accuracy: 10)
    XCTAssertEqual(report.sidespin, -25, accuracy: 10)
    // The uncertainty covers the error the smooth fault causes (within 3σ).
    let error = ((report.topspin - 80) * (report.topspin - 80) + (report.sidespin + 25) * (report.sidespin + 25)).squareRoot()
    XCTAssertLessThanOrEqual(error, 3 * report.uncertainty, "\(report)")
  }
}
