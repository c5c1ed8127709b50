@testable import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneBallPlay

/// A ball settling on the floor far from the cameras (two views, σ 5 mm), as after a point in the
/// simulator: hops of 4, 2.2, 1.2, 0.7… cm, then a roll. The flights alone lose the last hop of a
/// centimetre or more in the noise; the hop chain (`SettlingHops`) finds it, and no bounce is found on
/// the ball rolling or lying still, or held low over the table.
/// (An extension of `SettlingBallTests`: the same table, frame rate and ball.)
extension SettlingBallTests {
  /// The ball dropped `drop` m onto the floor at (4.5, 1.2), moving 0.6 m/s along x, restitution 0.75
  /// (the table-tennis asset's floor), rolling once a rebound is slower than 0.15 m/s; seen every frame
  /// but every 17th with noise `sigma` per axis. Returns the observations and the frames of the
  /// bounces whose rebound lifts the ball at least 1 cm (the truth's rule).
  func floorSettling(seed: UInt64, sigma: Double, drop: Double = 0.12, frames: Int = 150)
    -> (observations: [(frame: Int, position: SIMD3<Double>)], bounces: [Int])
  {
    let (truth, bounces) = bouncingBall(
      from: SIMD3(4.5, 1.2, table.ballRadius + drop), velocity: SIMD3(0.6, 0, 0), rest: table.ballRadius, restitution: 0.75,
      tangentialKeep: 0.9, rollDecay: 0.999, frames: frames)
    var rng = SeededGenerator(seed: seed)
    let observations = truth.indices.filter { $0 % 17 != 9 }.map {
      (frame: $0, position: truth[$0] + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
    }
    return (observations, bounces)
  }

  /// A ball dropped from `start`, bouncing on a surface at resting height `rest` (normal speed times
  /// `restitution`, horizontal times `tangentialKeep`), rolling once a rebound is slower than 0.15
  /// m/s (its speed times `rollDecay` per 1/2400 s step): positions at `frames` frames and the frames
  /// of the bounces whose rebound lifts it at least 1 cm.
  func bouncingBall(
    from start: SIMD3<Double>, velocity: SIMD3<Double>, rest: Double, restitution: Double, tangentialKeep: Double = 1,
    rollDecay: Double = 1, frames: Int
  ) -> (truth: [SIMD3<Double>], bounces: [Int]) {
    var p = start, v = velocity
    let dt = 1 / 2400.0
    var t = 0.0, frame = 0
    var truth: [SIMD3<Double>] = [], bounces: [Int] = []
    var rolling = false
    while frame < frames {
      if rolling {
        p += v * dt
        v *= rollDecay
      } else {
        (p, v) = model.advance(p, v, by: dt, step: dt)
        if p.z < rest, v.z < 0 {
          v.z = -restitution * v.z
          v.x *= tangentialKeep
          v.y *= tangentialKeep
          p.z = rest
          if v.z >= (2 * 9.81 * 0.01).squareRoot() { bounces.append(Int((t * fps).rounded())) }
          if v.z < 0.15 { rolling = true; v.z = 0 }
        }
      }
      t += dt
      if t >= Double(frame) / fps {
        truth.append(p)
        frame += 1
      }
    }
    return (truth, bounces)
  }

  /// Detected bounces matched to true ones within ±2 frames: (matched, detected, true).
  func score(_ detected: [Int], _ truth: [Int]) -> (Int, Int, Int) {
    var free = truth
    var matched = 0
    for d in detected {
      if let i = free.firstIndex(where: { abs($0 - d) <= 2 }) {
        free.remove(at: i)
        matched += 1
      }
    }
    return (matched, detected.count, truth.count)
  }

  func testEverySettlingHopOfACentimetreIsFoundInFarCameraNoise() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    var withHops = (0, 0, 0), flightsOnly = (0, 0, 0)
    for seed in 1...8 as ClosedRange<UInt64> {
      let (observations, truth) = floorSettling(seed: seed, sigma: 0.005)
      XCTAssertEqual(truth.count, 4, "drops of 12, 6.8, 3.8, 2.1, 1.2 cm: four rebounds of a centimetre or more")
      let a = score(detectedBounces(observations, surfaces: BallSurfaces(ballRadius: 0.02, table: table)), truth), b = score(detectedBounces(observations, surfaces: BallSurfaces(ballRadius: 0.02, table: table), hops: false), truth)
      withHops = (withHops.0 + a.0, withHops.1 + a.1, withHops.2 + a.2)
      flightsOnly = (flightsOnly.0 + b.0, flightsOnly.1 + b.1, flightsOnly.2 + b.2)
    }
    print("settling hops, (matched, detected, true): with the chain \(withHops), flights only \(flightsOnly)")
    // 32 true bounces over the eight seeds. Measured: the chain 30 of 32, none false (the two missed are the
    // last, 1.2 cm rebound), the flights alone 28 of 32 with one false.
    XCTAssertGreaterThanOrEqual(Double(withHops.0) / Double(withHops.2), 0.9, "with hops: \(withHops)")
    XCTAssertGreaterThanOrEqual(Double(withHops.0) / Double(max(1, withHops.1)), 0.95, "with hops: \(withHops)")
    // The flights alone miss some (the comparison that shows what the chain adds).
    XCTAssertLessThan(Double(flightsOnly.0) / Double(flightsOnly.2), Double(withHops.0) / Double(withHops.2), "flights only: \(flightsOnly)")
  }

  func testTheChainMeasuresEachHop() {
    // Noise-free: contacts within a quarter frame of the truth's and hop heights within 2 mm.
    let (observations, truth) = floorSettling(seed: 1, sigma: 0)
    let ball = Dictionary(observations.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    let stretches = SettlingHops(surfaces: BallSurfaces(ballRadius: 0.02, table: table)).stretches(ball, fps: fps)
    let found = stretches.flatMap(\.contacts).filter { $0.descended && ($0.hopAfter ?? 0) >= 0.01 }
    // Every rebound of a centimetre, the first (6.8 cm, rising above `maxLift` out of the stretch) too.
    XCTAssertEqual(found.count, truth.count, "\(found.map { $0.time * fps }) vs \(truth)")
    for (c, f) in zip(found, truth) { XCTAssertLessThanOrEqual(abs(c.time * fps - Double(f)), 0.5) }
    for c in found { XCTAssertEqual(c.position.z, 0.02, accuracy: 1e-12) }
  }

  func testNoBounceOnABallRollingLyingOrHeld() {
    var rng = SeededGenerator(seed: 5)
    // Rolling on the floor at 0.3 m/s, lying still, then held 3 cm over the table top and moved about.
    var observations: [(frame: Int, position: SIMD3<Double>)] = []
    for f in 0..<120 {
      observations.append((f, SIMD3(3 + 0.005 * Double(f), -1, 0.02) + 0.006 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    for f in 120..<240 {
      observations.append((f, SIMD3(3.6, -1, 0.02) + 0.006 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    for f in 300..<420 {
      let s = Double(f - 300) / fps
      let held = SIMD3(0.8 + 0.05 * sin(3 * s), 0.2, 0.81 + 0.015 * sin(5 * s))
      observations.append((f, held + 0.003 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
    }
    XCTAssertEqual(detectedBounces(observations, surfaces: BallSurfaces(ballRadius: 0.02, table: table)), [])
  }

  func testTheChainsNoiseIsTheResidualsNotTheContactsKinks() {
    // Third differences across a contact see its kink as well as the noise; on a stretch of short
    // hops that overstates σ, and the BIC penalty (σ² ln n) then hides the last hops. The chain is
    // found again with the noise of its own residuals (`SettlingHops.residualNoise`).
    let sigma = 0.003
    var chainError = 0.0, thirdError = 0.0, count = 0
    for seed in 1...8 as ClosedRange<UInt64> {
      let (observations, _) = floorSettling(seed: seed, sigma: sigma)
      let ball = Dictionary(observations.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
      for s in SettlingHops(surfaces: BallSurfaces(ballRadius: 0.02, table: table)).stretches(ball, fps: fps) {
        let frames = s.frames.filter { ball[$0] != nil }
        guard let third = SettlingHops.noise(frames, frames.map { ball[$0]!.z }) else { continue }
        chainError += abs(s.noise / sigma - 1)
        thirdError += abs(third / sigma - 1)
        count += 1
      }
    }
    XCTAssertGreaterThanOrEqual(count, 8)
    print("settling hops' noise, mean |σ̂/σ − 1|: the chain's \(chainError / Double(count)), third differences \(thirdError / Double(count))")
    XCTAssertLessThan(chainError / Double(count), 0.25)
    XCTAssertLessThan(chainError, thirdError, "the residuals' estimate is nearer the truth")
  }

  func testResidualNoiseCountsTheFittedParameters() {
    XCTAssertEqual(SettlingHops.residualNoise([0.003, -0.003, 0.003, -0.003, 0.003, -0.003, 0.003, -0.003], parameters: 2)!,
                   (8 * 0.003 * 0.003 / 6).squareRoot(), accuracy: 1e-12)
    XCTAssertNil(SettlingHops.residualNoise([0.001, 0.002, 0.003, 0.004, 0.005, 0.006], parameters: 2), "four degrees of freedom")
  }
}
