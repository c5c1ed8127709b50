import Foundation
import MatchSceneBallFlight
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneSimulation
import TestSupport
import XCTest

final class DrillTests: XCTestCase {
  /// Simulated touch drills (20 s each, pads on the body and in the venue, misses and touches out of
  /// turn, a turning player) with 2 cm of joint noise: the score equals the truth in ≥ 95 % of them,
  /// and so do the hits per target.
  func testDrillScoreEqualsTheTruthInAtLeast95PercentOfSimulatedDrills() {
    var equal = 0, total = 0, hits = 0
    for seed in UInt64(1)...30 {
      let order: Drill.Order = seed % 3 == 0 ? .any : .sequence
      let simulated = TouchDrillSimulator.simulate(seed: seed, order: order)
      let result = DrillScorer.score(
        simulated.drill, motion: simulated.measured(sigma: 0.02, seed: seed), venue: .assumed(worldUp: SIMD3(0, 0, 1)))
      total += 1
      hits += simulated.truthResult.hits.count
      if result.score == simulated.truthResult.score && result.targets == simulated.truthResult.targets {
        equal += 1
        // The times of the hits: detection at the surface, the truth at the arrival.
        for (a, b) in zip(result.hits, simulated.truthResult.hits) {
          XCTAssertEqual(a.target, b.target)
          XCTAssertLessThan(abs(a.time - b.time), 0.4, "seed \(seed)")
        }
      } else {
        print("seed \(seed): score \(result.score) vs truth \(simulated.truthResult.score); \(result.targets) vs \(simulated.truthResult.targets)")
      }
    }
    print("drills scored right: \(equal)/\(total) (\(hits) true hits)")
    XCTAssertGreaterThan(hits, 30 * 8, "the drills should hold enough hits to mean something")
    XCTAssertGreaterThanOrEqual(Double(equal) / Double(total), 0.95)
  }

  /// The rules: order, time window and scoring, on hand-made zone events.
  func testDrillRules() {
    let pad = { (name: String) in Zone(name: name, shape: .sphere(radius: 0.1), center: .zero, triggers: [.ball]) }
    func event(_ kind: MatchEvent.Kind, _ zone: String, _ time: Double, joint: String = "right_wrist") -> MatchEvent {
      var e = MatchEvent(type: kind, frame: Int(time * 100), time: time, track: "P1")
      e.zone = zone
      e.joint = joint
      return e
    }
    let events = [
      event(.zoneEnter, "a", 1), event(.zoneEnter, "a", 1.1, joint: "left_wrist"),  // both hands: one touch
      event(.zoneExit, "a", 1.2), event(.zoneExit, "a", 1.3, joint: "left_wrist"),
      event(.zoneEnter, "c", 2), event(.zoneExit, "c", 2.2),  // out of turn for a sequence
      event(.zoneEnter, "b", 3), event(.zoneExit, "b", 3.2),
      event(.zoneEnter, "a", 4), event(.zoneExit, "a", 4.2),
      event(.zoneEnter, "c", 12), event(.zoneExit, "c", 12.2),  // after the time limit
    ]
    var drill = Drill(name: "d", targets: [pad("a"), pad("b"), pad("c")], points: [1, 2, 3], order: .any, start: 0.5, timeLimit: 10)
    var r = DrillScorer.score(drill, zoneEvents: events, recording: 0...20)
    XCTAssertEqual(r.hits.map(\.target), ["a", "c", "b", "a"])
    XCTAssertEqual(r.score, 1 + 3 + 2 + 1)
    XCTAssertEqual(r.targets.map(\.hits), [2, 1, 1])
    XCTAssertEqual(r.end, 10.5)
    drill.order = .sequence
    r = DrillScorer.score(drill, zoneEvents: events, recording: 0...20)
    XCTAssertEqual(r.hits.map(\.target), ["a", "b"])
    XCTAssertEqual(r.hits.map(\.time), [1, 3])
    drill.order = .any
    drill.scoring = .targets
    // The drill ends a second before the recording: a flight cut by the end has no bounce to find.
    drill.start = 0
    drill.timeLimit = 14
    r = DrillScorer.score(drill, zoneEvents: events, recording: 0...20)
    XCTAssertEqual(r.score, 1 + 3 + 2)
    XCTAssertEqual(r.hits.count, 5)
  }

  func testBadDrillTOMLNamesFileAndKey() {
    let target = "[[target]]\nname = \"a\"\nshape = \"sphere\"\nradius = 0.1\n"
    let cases: [(String, String)] = [
      ("order = \"random\"\n" + target, "order"),
      ("scoring = \"best\"\n" + target, "scoring"),
      ("time_limit = -3\n" + target, "time_limit"),
      ("name = \"x\"", "target"),
      (target + "triggers = [\"ball\"]", "target[1].triggers"),
      ("colour = 1\n" + target, "colour"),
    ]
    for (text, key) in cases {
      XCTAssertThrowsError(try DrillTOML.parse(text, file: "my/drill.toml"), key) { error in
        XCTAssertTrue("\(error)".contains("my/drill.toml") && "\(error)".contains(key), "expected \(key) in: \(error)")
      }
    }
    let drill = try? DrillTOML.parse("touch = [\"ball\", \"left_wrist\"]\n" + target + "points = 3", file: "d.toml")
    XCTAssertEqual(drill?.targets.first?.triggers, [.ball, .role(.leftWrist)])
    XCTAssertEqual(drill?.points, [3])
  }
}

final class LandingDrillTests: XCTestCase {
  /// The table-targets example drill on simulated rallies: the bounces the analysis finds on the true
  /// tracks with 5 mm of noise, in the four targets, against the true bounces in the targets' footprints.
  func testTableTargetsDrillOnSimulatedRallies() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples")
    var drill = try DrillTOML.read(from: examples.appendingPathComponent("drills/table-targets.toml"))
    // The drill ends a second before the recording: a flight cut by the end has no bounce to find.
    drill.start = 0
    drill.timeLimit = 14
    let sport = try SportSpec.builtIn("table-tennis")
    var equal = 0, total = 0, landings = 0
    for seed in UInt64(1)...4 {
      var config = SimulationConfig()
      config.seed = seed
      config.duration = 15
      let simulated = try MatchSimulator.simulate(config, sport: sport)
      var truthMotion = simulated.truth
      truthMotion.tracks.removeAll { $0.kind != .ball }  // the ball's analysis only: fast
      let measured = SyntheticPerson.addingNoise(truthMotion, sigma: 0.005, seed: seed)
      let span = truthMotion.frames.map { truthMotion.time($0.lowerBound)...truthMotion.time($0.upperBound) } ?? 0...0
      let truth = LandingDrillTruth.result(drill, events: simulated.events, recording: span)
      let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)
      let analysed = MatchAnalyzer(table: table, ball: BallModel(gravity: SIMD3(0, 0, -sport.ball.gravity), drag: sport.ball.dragPerMetre)).run(measured)
      let found = DrillScorer.score(drill, motion: analysed.motion, venue: .assumed(worldUp: SIMD3(0, 0, 1)), events: analysed.events)
      total += 1
      landings += truth.hits.count
      if found.score == truth.score && found.targets == truth.targets { equal += 1 } else {
        print("seed \(seed): \(found.targets.map(\.hits)) vs truth \(truth.targets.map(\.hits))")
      }
    }
    print("table-target drills right: \(equal)/\(total) (\(landings) true landings)")
    XCTAssertGreaterThan(landings, 10)
    XCTAssertGreaterThanOrEqual(Double(equal) / Double(total), 0.75)
  }
}
