import MatchSceneAnalysis
import MatchSceneAssets
@testable import MatchSceneBallFlight
import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneBallPlay
import MatchSceneIO

/// `ball_at_rest` on a court sport (tennis, no rule engine): a ball track made with physics — struck,
/// bouncing on the floor (restitution from the sport), rolling out with rolling resistance, lying
/// still, picked up; some balls leave the view instead. Seen with noise and missed frames.
final class BallAtRestTests: XCTestCase {
  /// A tennis session of `count` plays at 50 fps; returns the observed ball by frame, the true frames
  /// at which the ball stopped (it then lies still at least 0.6 s), and the number of plays.
  func tennisBall(seed: UInt64, count: Int, noise: Double) -> (ball: [Int: SIMD3<Double>], rests: [Int]) {
    var rng = SeededGenerator(seed: seed)
    let fps = 50.0, g = 9.81, radius = 0.0335, e = 0.75, rolling = 0.8  // m/s² of rolling deceleration
    let substeps = 40
    var ball: [Int: SIMD3<Double>] = [:]
    var rests: [Int] = []
    var frame = 25
    func gauss() -> Double { (-2 * log(max(1e-12, rng.uniform(0...1)))).squareRoot() * cos(2 * .pi * rng.uniform(0...1)) }
    var truth: [Int: SIMD3<Double>] = [:]
    func observe(_ p: SIMD3<Double>) {
      truth[frame] = p
      if rng.uniform(0...1) < 0.08 { return }  // a missed detection
      ball[frame] = p + noise * SIMD3(gauss(), gauss(), gauss())
    }
    for play in 0..<count {
      var p = SIMD3(rng.uniform(-8...8), rng.uniform(-4...4), 1.0)
      var v = SIMD3(rng.uniform(-12...12), rng.uniform(-3...3), rng.uniform(1...5))
      let leaves = play % 5 == 4  // every fifth ball flies out of view
      var rolling_ = false
      var t = 0.0
      while true {
        observe(p)
        frame += 1
        t += 1 / fps
        let h = 1 / fps / Double(substeps)
        for _ in 0..<substeps {
          if rolling_ {
            let speed = length(v)
            let slowed = max(0, speed - rolling * h)
            v = speed > 0 ? v * (slowed / speed) : v
            p += v * h
          } else {
            v.z -= g * h
            p += v * h
            if p.z < radius, v.z < 0 {
              p.z = radius
              v.z = -e * v.z
              v.x *= 0.9
              v.y *= 0.9
              if v.z < 0.3 {
                rolling_ = true
                v.z = 0
              }
            }
          }
        }
        if leaves, t > 0.8 { break }
        if rolling_, length(v) == 0 {
          // At rest from the first frame the ball stays within 1 cm of where it stops.
          var still = frame
          while let q = truth[still - 1], length(q - p) <= 0.01 { still -= 1 }
          rests.append(still)
          let lying = Int(rng.uniform(0.6...1.5) * fps)
          for _ in 0..<lying {
            observe(p)
            frame += 1
          }
          break
        }
      }
      frame += Int(rng.uniform(1.5...3) * fps)  // picked up, out of view
    }
    return (ball, rests)
  }

  func motion(_ ball: [Int: SIMD3<Double>], fps: Double) -> MotionModel {
    let points = ball.map {
      TrackPoint(frame: $0.key, time: Double($0.key) / fps, track: "ball", kind: .ball, joint: "ball", position: $0.value, reprojectionPx: 0, views: 2)
    }
    return MotionModel(points: points, fps: fps, skeleton: .coco17)
  }

  /// The analysis of a court sport (no rule engine) gives `ball_at_rest` events and a rally per play,
  /// ending at the rest or the loss.
  func testCourtSportAnalysisGivesRestsAndRallies() throws {
    let sport = try SportSpec.builtIn("tennis")
    let (ball, rests) = tennisBall(seed: 7, count: 5, noise: 0.006)
    let analyzer = MatchAnalyzer(
      table: nil, ball: BallModel(gravity: SIMD3(0, 0, -sport.ball.gravity), drag: sport.ball.dragPerMetre), ballRadius: sport.ball.radius)
    let events = analyzer.run(motion(ball, fps: 50)).events
    let detected = events.filter { $0.type == .ballAtRest }.map(\.frame)
    XCTAssertEqual(detected.count, rests.count)
    for (d, t) in zip(detected, rests) { XCTAssertLessThanOrEqual(abs(d - t), 10) }
    XCTAssertEqual(events.filter { $0.type == .rallyStart }.count, 5)
    XCTAssertEqual(events.filter { $0.type == .rallyEnd }.count, 5)
  }

  /// Precision and recall ≥ 0.95 within 10 frames, the radius estimated from the track's noise; a
  /// rally per play.
  func testTennisBallAtRestAndRallies() throws {
    var tp = 0, fp = 0, fn = 0, rallies = 0, plays = 0
    for seed: UInt64 in [1, 2, 3] {
      let (ball, rests) = tennisBall(seed: seed, count: 20, noise: 0.006)
      let restEvents = BallRest.events(ball, fps: 50)
      let events = restEvents + BallRest.rallies(ball, rests: restEvents, fps: 50, lostDuration: 1, hold: 0.3)
      let detected = events.filter { $0.type == .ballAtRest }.map(\.frame)
      var used = Set<Int>()
      for t in rests {
        if let i = detected.indices.first(where: { !used.contains($0) && abs(detected[$0] - t) <= 10 }) {
          used.insert(i)
          tp += 1
        } else {
          fn += 1
        }
      }
      fp += detected.count - used.count
      rallies += events.filter { $0.type == .rallyEnd }.count
      plays += 20
      XCTAssertEqual(events.filter { $0.type == .rallyStart }.count, events.filter { $0.type == .rallyEnd }.count)
      let radius = BallRest.radius(ball, fps: 50, options: .init())
      XCTAssertEqual(radius, 5 * 0.006, accuracy: 0.01, "estimated from σ = 6 mm")
    }
    let precision = Double(tp) / Double(tp + fp), recall = Double(tp) / Double(tp + fn)
    print("ball_at_rest (tennis): \(tp) found, \(fp) false, \(fn) missed; precision \(precision), recall \(recall); \(rallies) rallies of \(plays) plays")
    XCTAssertGreaterThanOrEqual(precision, 0.95)
    XCTAssertGreaterThanOrEqual(recall, 0.95)
    XCTAssertGreaterThanOrEqual(rallies, plays * 9 / 10)
    XCTAssertLessThanOrEqual(rallies, plays)
  }

  /// Degenerate tracks: empty, too short for a noise estimate (the minimum radius), a ball that never
  /// stops; a bad radius or hold is refused naming the setting.
  func testDegenerateTracksAndBadSettings() {
    XCTAssertTrue(BallRest.events([:], fps: 50).isEmpty)
    XCTAssertNil(BallRest.noise([0: .zero, 1: .zero], fps: 50))
    XCTAssertEqual(BallRest.radius([0: .zero], fps: 50, options: .init()), 0.01)
    let flying = Dictionary(uniqueKeysWithValues: (0..<200).map { ($0, SIMD3(0.1 * Double($0), 0, 1.0)) })
    XCTAssertTrue(BallRest.events(flying, fps: 50).isEmpty)
    let still = Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, SIMD3(1.0, 2.0, 0.03)) })
    let rest = BallRest.events(still, fps: 50)
    XCTAssertEqual(rest.map(\.frame), [0])
    XCTAssertEqual(rest.first?.duration ?? 0, 2, accuracy: 1e-9)
    XCTAssertThrowsError(try BallRestOptions(radius: -1).validate()) { XCTAssertTrue("\($0)".contains("radius")) }
    XCTAssertThrowsError(try BallRestOptions(hold: 0).validate()) { XCTAssertTrue("\($0)".contains("hold")) }
  }
}
