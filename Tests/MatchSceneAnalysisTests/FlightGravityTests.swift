import Foundation
@testable import MatchSceneBallFlight
import MatchSceneCore
import XCTest

@testable import MatchSceneBallPlay

/// Gravity from flights fitted spinless with a slightly wrong gravity (1° off), as the venue locator
/// fits them: the joint fit with each flight's spin free recovers gravity's direction within its
/// stated uncertainty, spinning or not.
final class FlightGravityTests: XCTestCase {
  let fps = 60.0
  let trueGravity = 9.81 * SIMD3(0, sin(1 * Double.pi / 180), -cos(1 * Double.pi / 180))

  /// 40 flights along the table (either way, ±25°), 8–14 m/s, with topspin and sidespin each up to
  /// ±`maxSpin`/√2 rev/s, seen at 60 fps for 0.4 s with 3 mm of noise; fitted with gravity straight down.
  func flights(maxSpin: Double, seed: UInt64) -> (flights: [BallFlight], observations: [Int: SIMD3<Double>]) {
    var rng = SeededGenerator(seed: seed)
    func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.uniform() }
    var observations: [Int: SIMD3<Double>] = [:]
    var flights: [BallFlight] = []
    let guess = BallModel(gravity: SIMD3(0, 0, -9.81), drag: 0.126)
    for i in 0..<40 {
      let angle = uniform(-25, 25) * Double.pi / 180 + (i % 2 == 0 ? 0 : Double.pi)
      let speed = uniform(8, 14)
      let v0 = SIMD3(speed * cos(angle), speed * sin(angle), uniform(-1, 3))
      // Topspin (about ẑ × d) and sidespin (about ẑ), as players put on a ball.
      let top = SIMD3(-sin(angle), cos(angle), 0), side = SIMD3<Double>(0, 0, 1)
      let spin = 2 * Double.pi * (uniform(-maxSpin, maxSpin) * top + uniform(-maxSpin, maxSpin) * side) / 2.squareRoot()
      let truth = BallModel(gravity: trueGravity, drag: 0.126, magnus: 0.0015, spin: spin)
      let frames = (i * 40)...(i * 40 + 24)
      let times = frames.map { Double($0 - frames.lowerBound) / fps }
      let path = truth.positions(from: SIMD3(0, 0, 1), v0, at: times)
      var samples: [(time: Double, position: SIMD3<Double>)] = []
      for (frame, p) in zip(frames, path) {
        let seen = p + 0.003 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
        observations[frame] = seen
        samples.append((Double(frame) / fps, seen))
      }
      if let fit = FlightFit.fit(samples, model: guess, frames: frames) { flights.append(fit) }
    }
    return (flights, observations)
  }

  func testRecoversGravityWithAndWithoutSpin() throws {
    for (maxSpin, seed) in [(0.0, UInt64(1)), (150, 2), (150, 3)] {
      let (flights, observations) = flights(maxSpin: maxSpin, seed: seed)
      let g = try XCTUnwrap(BallContactFinder.gravity(flights, observations: observations, fps: fps))
      let error = acos(min(1, dot(normalize(g.g), normalize(trueGravity)))) * 180 / Double.pi
      let sigma = (g.standardError.x * g.standardError.x + g.standardError.y * g.standardError.y).squareRoot() / length(g.g) * 180 / Double.pi
      print(String(format: "gravity, spin up to %.0f rev/s: %.3f° off, σ %.3f°, %d flights", maxSpin, error, sigma, g.flights))
      XCTAssertLessThan(error, 3 * sigma + 0.02)
      XCTAssertLessThan(error, 0.3)
      XCTAssertGreaterThanOrEqual(g.flights, 30)
    }
  }
}
