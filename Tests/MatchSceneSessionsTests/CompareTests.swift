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
    XCTAssertTrue(comparison.summary.contains("forehand elbow_flexion differs by +"), comparison.summary)
    XCTAssertTrue(comparison.summary.contains("(follow-through)"), comparison.summary)
    XCTAssertTrue(comparison.plots.contains("technique-forehand-elbow_flexion"))

    let same = try SessionComparison(try store.comparisonEntries([b.id, b.id], player: "Ana"))
    XCTAssertTrue(same.noDifferences)
    XCTAssertEqual(same.differences, [])
    XCTAssertTrue(same.technique.allSatisfy { $0.comparison.rmse == 0 && $0.comparison.cmc == 1 && $0.comparison.dtw == 0 })
    XCTAssertTrue(same.summary.hasSuffix("no differences"))
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
