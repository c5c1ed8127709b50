@testable import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneBallPlay

/// A ball held still in the server's palm, seen the way the harder simulator (`--faults hard`) sees it:
/// the triangulation jumps between two solutions 4 cm apart (a miscalibrated camera in or out of the
/// view set) with 5 mm of noise, then it is tossed. No fitted flight may pass far from its own
/// observations: on seed 2 one 41-frame "flight" through the held ball arched 20 cm above and 37 cm
/// below it (its gate grew with its RMS), and its fitted positions made the ball's p95 error 315 mm.
final class HeldBallTests: XCTestCase {
  let fps = 60.0
  let model = BallModel(drag: 0.126)
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)

  func heldThenTossed(seed: UInt64) -> [(frame: Int, position: SIMD3<Double>)] {
    var rng = SeededGenerator(seed: seed)
    let palm = SIMD3<Double>(-1.54, -0.38, 0.887)
    var out: [(frame: Int, position: SIMD3<Double>)] = []
    for f in 0..<80 {
      let other = rng.chance(0.3) ? SIMD3<Double>(0.025, -0.032, 0.015) : .zero
      out.append((f, palm + other + 0.005 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    // The toss: straight up at 2.5 m/s, for 0.45 s.
    for f in 80..<107 {
      let t = Double(f - 80) / fps
      out.append((f, palm + SIMD3(0, 0, 2.5 * t - 4.905 * t * t) + 0.003 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    return out
  }

  func testNoFlightPassesFarFromItsObservations() {
    for seed in [1, 2, 3, 4] as [UInt64] {
      let observations = heldThenTossed(seed: seed)
      let flights = FlightSegmentation(model: model, surfaces: BallSurfaces(ballRadius: 0.02, table: table))
        .flights(observations, fps: fps)
      for flight in flights {
        for (frame, position) in observations where flight.frames.contains(frame) {
          let miss = length(flight.position(at: Double(frame) / fps) - position)
          XCTAssertLessThan(miss, 0.1, "seed \(seed): flight \(flight.frames) misses frame \(frame) by \(miss) m (rms \(flight.rms))")
        }
      }
    }
  }

  /// Play starts where the toss leaves the palm (ITTF Handbook 2.5.3), not at the first frame the ball
  /// was seen: on seed 2 the held ball's two places 4 cm apart never stayed within the 1 cm radius,
  /// so the serve's rally reached back over the whole hold and reported it.
  func testPlayStartsWhereTheTossLeavesAJitteringPalm() {
    for seed in [1, 2, 3, 4] as [UInt64] {
      let ball = Dictionary(heldThenTossed(seed: seed).map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
      let events = [
        MatchEvent(type: .rallyStart, frame: 104, time: 104 / fps), MatchEvent(type: .rallyEnd, frame: 106, time: 106 / fps),
      ]
      let ranges = Rallies.inPlay(events, ball: ball, maxGap: 15, stillFrames: 9, stillRadius: 0.01)
      XCTAssertEqual(ranges.count, 1)
      XCTAssertTrue((76...81).contains(ranges[0].lowerBound), "seed \(seed): play starts at \(ranges[0].lowerBound)")
    }
  }
}

