import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport
import XCTest

/// Identity through people crossing, and bounces just before a hit, on a hard simulated match:
/// 2× keypoint noise (3 px), 3 % outliers, 4 % left/right swaps, a bystander walking across the hall
/// right behind a player (`crossing`), and every return struck 1–3 frames after its bounce
/// (`earlyHitRate` 1).
final class CrossingAndEarlyBounceTests: XCTestCase {
  static let simulated: SimulatedMatch = {
    var config = SimulationConfig(seed: 2, duration: 12)
    config.noise.pixelSigma = 3
    config.noise.outlierRate = 0.03
    config.noise.swapRate = 0.04
    config.crossing = true
    config.earlyHitRate = 1
    return try! MatchSimulator.simulate(config, sport: try! SportSpec.builtIn("table-tennis"))
  }()

  func testCrossingPeopleKeepTheirIdsAndEarlyBouncesAreFound() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let truth = Self.simulated.truth.rows
    // The scene is what it claims: the bystander passes within a metre of a player (pelvis centres
    // across the ground) …
    func hips(_ track: String) -> [Int: SIMD2<Double>] {
      var sum: [Int: (SIMD2<Double>, Int)] = [:]
      for p in truth where p.track == track && p.joint.hasSuffix("_hip") {
        let s = sum[p.frame] ?? (.zero, 0)
        sum[p.frame] = (s.0 + SIMD2(p.position.x, p.position.y), s.1 + 1)
      }
      return sum.mapValues { $0.0 / Double($0.1) }
    }
    let bystander = hips("B1"), players = [hips("P1"), hips("P2")]
    let closest = bystander.compactMap { frame, b in players.compactMap { $0[frame].map { (($0 - b) * ($0 - b)).sum().squareRoot() } }.min() }.min() ?? .infinity
    XCTAssertLessThan(closest, 1.0, "the bystander must cross right behind a player")
    // … and returns come 1–3 frames after their bounce.
    let events = Self.simulated.events
    let hitFrames = events.filter { $0.type == .hit }.map(\.frame)
    let tableBounces = events.filter { $0.type == .bounce && $0.surface == .table }
    let early = tableBounces.filter { b in hitFrames.contains { (1...3).contains($0 - b.frame) } }
    XCTAssertGreaterThanOrEqual(early.count, 3, "early returns in the simulated match")

    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try MatchFolder.write(Self.simulated.match, to: folder, frames: Self.simulated.match.frameRange!)
    let result = try MatchPipeline().run(folder)
    let evaluation = TrackEvaluation(estimate: result.motion, truth: Self.simulated.truth)
    XCTAssertEqual(evaluation.identitySwitches, 0, evaluation.summary)
    XCTAssertEqual(evaluation.playerMatches["P1"], "P1", evaluation.summary)
    XCTAssertEqual(evaluation.playerMatches["P2"], "P2", evaluation.summary)
    XCTAssertEqual(evaluation.playerMatches["B1"], "B1", evaluation.summary)

    // Table bounces, the early ones included, within ±2 frames.
    let detected = result.events.filter { $0.type == .bounce && $0.surface == .table }
    func found(_ b: MatchEvent) -> Bool { detected.contains { abs($0.frame - b.frame) <= 2 } }
    let missedEarly = early.filter { !found($0) }.map(\.frame)
    XCTAssertEqual(missedEarly, [], "bounces 1–3 frames before a hit, missed")
    let recall = Double(tableBounces.filter(found).count) / Double(tableBounces.count)
    let precision = Double(detected.filter { d in tableBounces.contains { abs($0.frame - d.frame) <= 2 } }.count) / Double(max(1, detected.count))
    XCTAssertGreaterThanOrEqual(recall, 0.98)
    XCTAssertGreaterThanOrEqual(precision, 0.98)
  }
}
