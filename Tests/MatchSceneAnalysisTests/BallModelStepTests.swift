@testable import MatchSceneBallFlight
import MatchSceneCore
import XCTest

/// The flight model's RK4 step (`BallModel.integrationStep`) is far finer than any camera measures: a
/// smash integrated in its steps, forward and backward from the middle of its flight (where a fit puts
/// its reference), ends within 1 µm of the same flight integrated in steps 40 times shorter.
final class BallModelStepTests: XCTestCase {
  func testTheDefaultStepMatchesAFortyTimesFinerIntegration() {
    // A table-tennis ball (40 mm, 2.7 g, C_M 0.2 in air at 1.2 kg/m³) struck at 25 m/s with 150 rev/s
    // of topspin; the reference state is 0.2 s into its flight.
    let magnus = BallModel.magnusConstant(coefficient: 0.2, airDensity: 1.2, radius: 0.02, mass: 0.0027)
    let model = BallModel(drag: 0.126, magnus: magnus, spin: SIMD3(0, 150 * 2 * Double.pi, 0))
    let fine = BallModel.integrationStep / 40
    let launch = (SIMD3(-1.6, 0.2, 1.0), SIMD3(25.0, -1.0, 1.0))
    let (p0, v0) = model.advance(launch.0, launch.1, by: 0.2, step: fine)
    for t in [-0.2, -0.1, 0.1, 0.25, 0.5] {
      let coarse = model.advance(p0, v0, by: t)
      let reference = model.advance(p0, v0, by: t, step: fine)
      XCTAssertLessThan(length(coarse.0 - reference.0), 1e-6, "position after \(t) s")
      XCTAssertLessThan(length(coarse.1 - reference.1), 1e-5, "velocity after \(t) s")
    }
    // The batch form integrates in the same steps.
    let times = [-0.15, 0.1, 0.4]
    let batch = model.positions(from: p0, v0, at: times)
    for (i, t) in times.enumerated() {
      XCTAssertLessThan(length(batch[i] - model.advance(p0, v0, by: t, step: fine).0), 1e-6, "positions at \(t) s")
    }
  }
}
