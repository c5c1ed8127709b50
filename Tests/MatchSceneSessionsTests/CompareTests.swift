import Foundation
import MatchSceneSessions
import TestSupport
import XCTest

final class CompareTests: XCTestCase {
  /// Two sessions of one player, 12 forehands each with 2° noise per frame; in the second the elbow is
  /// 8° more flexed from 70 % of the stroke on (contact at 62.5 %): compare names elbow_flexion, the
  /// follow-through, and 8° within 2°, and nothing for the unchanged shoulder. A session against itself
  /// differs in nothing.
  func testNamesTheChangedJointPhaseAndSize() throws {
    let dir = try makeTemporaryFolder("sessions-compare")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let match = try simulatedMatch(seed: 31, duration: 6)
    let a = try store.add(
      try SessionInput.read(
        outputFolder: try writeOutputFolder(
          match, to: dir.appendingPathComponent("a"), names: ["P1": "Ana"], extraFiles: techniqueFiles(seed: 1))))
    let b = try store.add(
      try SessionInput.read(
        outputFolder: try writeOutputFolder(
          match, to: dir.appendingPathComponent("b"), names: ["P1": "Ana"],
          extraFiles: techniqueFiles(elbowChange: 8, seed: 2))))

    let comparison = try SessionComparison(try store.comparisonEntries([a.id, b.id], player: "Ana"))
    let elbow = try XCTUnwrap(comparison.technique.first { $0.angle == "elbow_flexion" && $0.strokeKind == "forehand" })
    XCTAssertEqual(elbow.comparison.stretches.count, 1, "\(elbow.comparison.stretches)")
    let stretch = try XCTUnwrap(elbow.comparison.stretches.first)
    XCTAssertEqual(stretch.phase, "follow-through")
    XCTAssertEqual(stretch.meanDifference, 8, accuracy: 2)
    XCTAssertEqual(Double(stretch.fromPercent), 70, accuracy: 4)
    XCTAssertEqual(stretch.toPercent, 100)
    let shoulder = try XCTUnwrap(comparison.technique.first { $0.angle == "shoulder_elevation" })
    XCTAssertEqual(shoulder.comparison.stretches, [], "the unchanged angle")
    XCTAssertGreaterThan(try XCTUnwrap(shoulder.comparison.cmc), 0.95)
    print(comparison.summary)
    // SPM over both angles: one cluster, the elbow over the follow-through, of the right size.
    let spm = try XCTUnwrap(comparison.spm.first)
    XCTAssertEqual(spm.curvesTested, 2)
    XCTAssertEqual(spm.clusters.count, 1, "\(spm.clusters)")
    let cluster = try XCTUnwrap(spm.clusters.first)
    XCTAssertEqual(cluster.angle, "elbow_flexion")
    XCTAssertEqual(cluster.phase, "follow-through")
    XCTAssertEqual(cluster.meanDifference, 8, accuracy: 1.5)
    XCTAssertEqual(Double(cluster.fromPercent), 70, accuracy: 4)
    XCTAssertLessThanOrEqual(cluster.p, 0.001)
    XCTAssertTrue(comparison.summary.contains("forehand elbow_flexion +"), comparison.summary)
    XCTAssertTrue(comparison.summary.contains("(follow-through)"), comparison.summary)
    XCTAssertTrue(comparison.plots.contains("technique-forehand-elbow_flexion"))
    // compare.html leads with its findings: the cluster first, then the headline table, the full list
    // folded below, the plots after.
    let html = ComparePage.render(comparison)
    let findings = try XCTUnwrap(html.range(of: "<section id=\"findings\">")), movement = try XCTUnwrap(html.range(of: "<h2>Movement</h2>"))
    let first = try XCTUnwrap(html.range(of: "<li class=\"finding\">"))
    XCTAssertLessThan(findings.lowerBound, first.lowerBound)
    XCTAssertLessThan(first.lowerBound, movement.lowerBound)
    XCTAssertTrue(html[first.upperBound...].hasPrefix("<b>forehand elbow flexion</b> +"), String(html[first.lowerBound...].prefix(200)))
    let folded = try XCTUnwrap(html.range(of: "<details><summary>Every figure that changed</summary><pre id=\"summary\">"))
    XCTAssertLessThan(first.lowerBound, folded.lowerBound)

    let same = try SessionComparison(try store.comparisonEntries([b.id, b.id], player: "Ana"))
    XCTAssertTrue(same.noDifferences)
    XCTAssertEqual(same.differences, [])
    XCTAssertTrue(same.technique.allSatisfy { $0.comparison.rmse == 0 && $0.comparison.cmc == 1 && $0.comparison.dtw == 0 })
    XCTAssertTrue(same.summary.hasSuffix("no differences"))
    XCTAssertEqual(same.spm.first?.clusters, [])
  }

  /// Form scores stored with a session (`form.json`) give each stroke kind's median and quartiles, and a
  /// change of the median between sessions is listed.
  func testFormScoreDistributionsAreComparedPerStrokeKind() throws {
    let dir = try makeTemporaryFolder("sessions-compare-scores")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let match = try simulatedMatch(seed: 31, duration: 6)
    let a = try store.add(
      try SessionInput.read(
        outputFolder: try writeOutputFolder(
          match, to: dir.appendingPathComponent("a"), names: ["P1": "Ana"],
          extraFiles: techniqueFiles(seed: 1, scores: [80, 85, 90, 95]))))
    let b = try store.add(
      try SessionInput.read(
        outputFolder: try writeOutputFolder(
          match, to: dir.appendingPathComponent("b"), names: ["P1": "Ana"],
          extraFiles: techniqueFiles(seed: 2, scores: [60, 70]))))
    let comparison = try SessionComparison(try store.comparisonEntries([a.id, b.id], player: "Ana"))
    let first = try XCTUnwrap(comparison.sessions[0].consistency.first { $0.strokeKind == "forehand" })
    // 12 strokes cycling 80, 85, 90, 95: three of each; median 87.5, quartiles 83.75 and 91.25 (type 7).
    XCTAssertEqual(try XCTUnwrap(first.formScoreMedian), 87.5, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(first.formScoreLowerQuartile), 83.75, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(first.formScoreUpperQuartile), 91.25, accuracy: 1e-9)
    let change = try XCTUnwrap(comparison.differences.first { $0.what == "forehand: median form score" })
    XCTAssertEqual(change.baseline, 87.5, accuracy: 1e-9)
    XCTAssertEqual(change.value, 65, accuracy: 1e-9)
  }

  /// SPM's family-wise error: 20 pairs of sessions of the same technique (12 strokes each, 2° noise per
  /// frame on two angles) give a cluster in at most 4 (α = 0.05: 1 expected); the threshold is the same
  /// on every run (seeded permutations).
  func testSPMFamilyWiseErrorOnUnchangedTechnique() throws {
    func metrics(_ seed: UInt64, session: Int64) throws -> [String: [String: NormalisedCurves]] {
      let files = techniqueFiles(seed: seed)
      return try SessionMetrics.technique(
        strokes: Data(files["strokes.json"]!.utf8), angles: Data(files["angles.csv"]!.utf8), track: "P1", session: session)
    }
    var withCluster = 0
    for pair in 0..<20 {
      let a = try metrics(UInt64(1000 + 2 * pair), session: 1), b = try metrics(UInt64(1001 + 2 * pair), session: 2)
      let spm = CurveSPM(a, b, baseline: 1, session: 2, permutations: 500)
      if !spm.clusters.isEmpty { withCluster += 1 }
      if pair == 0 {
        XCTAssertEqual(spm, CurveSPM(a, b, baseline: 1, session: 2, permutations: 500), "seeded: the same every run")
      }
    }
    print("pairs with a cluster: \(withCluster) of 20")
    XCTAssertLessThanOrEqual(withCluster, 4)
  }

  /// Landmark registration: a stroke whose phases last 12, 8 and 20 frames puts its forward swing start at
  /// 30 % and contact at 50 %, with frames interpolated linearly between.
  func testRegisteredCurvesPutTheLandmarksAtFixedSamples() throws {
    let values = Dictionary(uniqueKeysWithValues: (100...140).map { ($0, Double($0)) })
    let curve = try XCTUnwrap(NormalisedCurves.registered(values, landmarks: [100.5, 112.5, 120.5, 140]))
    XCTAssertEqual(curve.count, 101)
    XCTAssertEqual(curve[0], 100.5, accuracy: 1e-9)
    XCTAssertEqual(curve[30], 112.5, accuracy: 1e-9)
    XCTAssertEqual(curve[50], 120.5, accuracy: 1e-9)
    XCTAssertEqual(curve[100], 140, accuracy: 1e-9)
    XCTAssertEqual(curve[40], 116.5, accuracy: 1e-9)
    XCTAssertNil(NormalisedCurves.registered(values, landmarks: [100, 120, 110, 140]), "out of order")
  }

  /// CMC (Kadaba 1989) and DTW on known curves: an offset lowers CMC below 1 with DTW the offset; a time
  /// shift keeps DTW small where RMSE is large.
  func testCurveMeasures() throws {
    let base = (0..<101).map { 50 + 30 * sin(2 * .pi * Double($0) / 100) }
    func curves(_ c: [Double]) -> NormalisedCurves { NormalisedCurves([c, c], contactPercents: [50, 50])! }
    let offset = CurveComparison(curves(base), curves(base.map { $0 + 5 }))
    XCTAssertEqual(offset.rmse, 5, accuracy: 1e-9)
    XCTAssertLessThan(try XCTUnwrap(offset.cmc), 0.99)
    XCTAssertEqual(offset.stretches.first?.meanDifference ?? 0, 5, accuracy: 1e-9)
    let shifted = (0..<101).map { 50 + 30 * sin(2 * .pi * Double($0 - 5) / 100) }
    let shift = CurveComparison(curves(base), curves(shifted))
    XCTAssertGreaterThan(shift.rmse, 5)
    XCTAssertLessThan(shift.dtw, 1.5)
  }
}
