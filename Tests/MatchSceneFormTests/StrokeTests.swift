import MatchSceneCore
import MatchSceneForm
import MatchSceneSimulation
import TestSupport
import XCTest

/// Stroke segmentation, classification and handedness against the simulator's true strokes.
final class StrokeTests: XCTestCase {
  func testStrokesMatchTruth() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let fixture = mixedHandsFixture
    let form = try fixture.form()
    // The truth within the reconstructed frames (contact frames the cameras cover).
    let truth = fixture.simulated.strokes.filter { fixture.result.frames.contains($0.contactFrame) }
    let matching = StrokeMatching(found: form.strokes, truth: truth)
    let summary = "\(truth.count) true strokes, \(matching.matched.count) matched, \(matching.falsePositives) false, \(matching.missed) missed, F1 \(matching.f1), kind \(matching.kindAccuracy)"
    print(summary)
    let falses = form.strokes.filter { f in !matching.matched.contains { $0.found == f } }
    print("false:", falses.map { "\($0.track) \($0.kind) frame \($0.contactFrame) rally \($0.rally ?? -1)" }, "truth near:",
      falses.map { f in truth.filter { abs($0.contactFrame - f.contactFrame) < 30 }.map { "\($0.track) \($0.kind) \($0.contactFrame)" } })
    XCTAssertGreaterThan(truth.count, 30, summary)
    XCTAssertGreaterThanOrEqual(matching.f1, 0.97, summary)
    XCTAssertGreaterThanOrEqual(matching.kindAccuracy, 0.98, summary)
    for kind in StrokeKind.allCases {
      XCTAssert(matching.matched.contains { $0.truth.kind == kind.rawValue }, "no true \(kind) stroke: \(summary)")
    }
    // Handedness: right-handed P1, left-handed P2.
    XCTAssertEqual(form.series("P1")?.racketSide, .right)
    XCTAssertEqual(form.series("P2")?.racketSide, .left)
    XCTAssertEqual(Set(form.strokes.filter { $0.track == "P2" }.map(\.hand)), [.left])
    // Phases in order, within the segmenter's window.
    for s in form.strokes {
      XCTAssertLessThan(s.backswingStartFrame, s.contactFrame)
      XCTAssertLessThan(s.contactFrame, s.followThroughEndFrame)
      XCTAssertLessThanOrEqual(Double(s.followThroughEndFrame - s.backswingStartFrame) / fixture.result.motion.fps, 1.2)
      XCTAssertNotNil(s.angles["contact"]?["elbow_flexion_r"])
    }
  }

  /// Handedness the other way round too (left-handed P1, right-handed P2), from the truth's motion and
  /// events.
  func testHandednessBothWays() throws {
    for hands in [(Handedness.left, Handedness.right), (.right, .right), (.left, .left)] {
      let simulated = try MatchSimulator.simulate(
        SimulationConfig(
          seed: 21, duration: 15,
          players: [PlayerConfig(height: 1.75, handedness: hands.0), PlayerConfig(height: 1.65, handedness: hands.1)]),
        sport: tableTennis)
      let form = try FormAnalysis.run(motion: simulated.truth, venue: .assumed(worldUp: SIMD3(0, 0, 1)), events: simulated.events)
      XCTAssertEqual(form.series("P1")?.racketSide.rawValue, hands.0.rawValue)
      XCTAssertEqual(form.series("P2")?.racketSide.rawValue, hands.1.rawValue)
    }
  }

  /// The technique knobs change what the angles measure: twice the trunk rotation doubles the
  /// X-factor's peak in the backswing (truth, same rallies).
  func testTechniqueKnobsAreMeasurable() throws {
    func peakXFactor(_ technique: Technique) throws -> Double {
      let simulated = try MatchSimulator.simulate(
        SimulationConfig(seed: 4, duration: 10, players: [PlayerConfig(height: 1.7, technique: technique), PlayerConfig(height: 1.8)]),
        sport: tableTennis)
      let form = try FormAnalysis.run(motion: simulated.truth, venue: .assumed(worldUp: SIMD3(0, 0, 1)), events: simulated.events)
      let p1 = try XCTUnwrap(form.series("P1"))
      return p1.frames.map { abs(p1.angle(.trunkRotation, frame: $0)) }.max()!
    }
    let base = try peakXFactor(Technique())
    let doubled = try peakXFactor(Technique(trunkRotation: 2))
    XCTAssertGreaterThan(base, 10)
    XCTAssertEqual(doubled / base, 2, accuracy: 0.1, "peak X-factor \(base)° → \(doubled)°")
  }
}
