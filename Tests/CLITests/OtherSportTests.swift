import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `reconstruct` runs the time analysis for every built-in sport: players smoothed with constant bone
/// lengths, the ball's flights fitted; bounces, hits, net and points, which need the table, only for
/// table tennis; the ball at rest and the rallies it ends for every sport.
final class OtherSportTests: XCTestCase {
  func testASportWithoutATableIsAnalysedWithoutEvents() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "2"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)

    let analysed = folder.appendingPathComponent("tennis"), raw = folder.appendingPathComponent("raw")
    let run = try runMatchScene(["reconstruct", match.path, "-o", analysed.path, "--sport", "tennis", "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stderr.contains("note: ") && run.stderr.contains("Tennis has no table") && run.stderr.contains("skipped"), run.stderr)
    // No rule engine: no bounces, hits, net or points; the ball's rests and the rallies they end.
    let events = try EventsJSON.read(from: analysed.appendingPathComponent("events.json"))
    XCTAssertEqual(Set(events.map(\.type)).subtracting([.ballAtRest, .rallyStart, .rallyEnd]), [])
    XCTAssertTrue(events.contains { $0.type == .ballAtRest }, "the ball held still on the palm before the serve")
    let plain = try runMatchScene(["reconstruct", match.path, "-o", raw.path, "--sport", "tennis", "--no-scene", "--no-analysis"])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    XCTAssertFalse(plain.stderr.contains("note:"), "nothing skipped when no analysis was asked for")

    let smooth = try TracksCSV.read(from: analysed.appendingPathComponent("tracks.csv"))
    let triangulated = try TracksCSV.read(from: raw.appendingPathComponent("tracks.csv"))
    /// P1's joint positions by frame.
    func joint(_ name: String, _ points: [TrackPoint]) -> [Int: SIMD3<Double>] {
      Dictionary(points.filter { $0.track == "P1" && $0.joint == name }.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    }
    /// Standard deviation of the upper arm's length over the frames.
    func upperArmSpread(_ points: [TrackPoint]) -> Double {
      let shoulder = joint("left_shoulder", points), elbow = joint("left_elbow", points)
      let lengths = shoulder.keys.compactMap { f in elbow[f].map { length(shoulder[f]! - $0) } }
      let mean = lengths.reduce(0, +) / Double(lengths.count)
      return (lengths.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(lengths.count)).squareRoot()
    }
    /// Mean |second difference| of the left wrist over consecutive frames, metres.
    func wristRoughness(_ points: [TrackPoint]) -> Double {
      let wrist = joint("left_wrist", points)
      let steps = wrist.keys.compactMap { f -> Double? in
        guard let a = wrist[f - 1], let b = wrist[f], let c = wrist[f + 1] else { return nil }
        return length(a + c - 2 * b)
      }
      return steps.reduce(0, +) / Double(steps.count)
    }
    XCTAssertLessThan(upperArmSpread(smooth), 0.001, "bone lengths made constant")
    XCTAssertGreaterThan(upperArmSpread(triangulated), 0.002, "the triangulation alone varies")
    XCTAssertLessThan(wristRoughness(smooth), 0.5 * wristRoughness(triangulated), "players smoothed")
    // The ball is reported wherever it was seen (no rallies to bound it) — fitted inside flights.
    let ballFrames = Set(smooth.filter { $0.kind == .ball }.map(\.frame))
    let seenFrames = Set(triangulated.filter { $0.kind == .ball }.map(\.frame))
    XCTAssertGreaterThanOrEqual(ballFrames.intersection(seenFrames).count, seenFrames.count * 95 / 100)
  }
}
