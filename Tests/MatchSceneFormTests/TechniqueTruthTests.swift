import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneSimulation
import TestSupport
import XCTest

/// Form scores against a known truth (`TechniqueTruth`): strokes of a kind all alike but for the
/// keypoint noise, and known errors at contact in one racket-arm joint.
final class TechniqueTruthTests: XCTestCase {
  static let baseline: SimulatedMatch = try! TechniqueTruth.simulate(TechniqueTruth.config())
  static let baselineForm: FormResult = try! TechniqueTruth.form(baseline)

  /// Identical technique: the registered curves line up and almost no stroke gets a comment.
  func testIdenticalTechniqueGetsNoComments() throws {
    let comparison = FormComparison(Self.baselineForm)
    let entries = comparison.entries
    XCTAssertGreaterThan(entries.count, 80)
    let commented = entries.filter { !$0.score.notes.isEmpty }
    let large = entries.flatMap(\.score.notes).filter { abs($0.degrees) >= 10 }
    // Phase durations of P1's forehands, frames.
    let fps = Self.baselineForm.motion.fps
    let forehands = entries.filter { $0.stroke.track == "P1" && $0.stroke.kind == .forehand }
    func spread(_ values: [Double]) -> String {
      String(format: "%.2f…%.2f", values.min() ?? .nan, values.max() ?? .nan)
    }
    let summary = """
      \(entries.count) strokes, \(commented.count) with a comment, \(large.count) comments ≥ 10°; \
      P1 forehands \(forehands.count): backswing \(spread(forehands.map { $0.curves.backswingDuration * fps })) frames, \
      forward swing \(spread(forehands.map { ($0.curves.forwardSwingDuration ?? .nan) * fps })), \
      follow-through \(spread(forehands.map { $0.curves.followThroughDuration * fps })); \
      scores \(spread(entries.map(\.score.score))); comments: \(commented.prefix(5).flatMap(\.score.comments))
      """
    print(summary)
    XCTAssertLessThanOrEqual(Double(commented.count), 0.05 * Double(entries.count), summary)
    XCTAssertEqual(large.count, 0, summary)
  }

  /// Without noise, two identical strokes give the same registered curves (to the linear
  /// interpolation between frames).
  func testIdenticalStrokesGiveIdenticalCurves() throws {
    let form = try TechniqueTruth.form(Self.baseline, noise: 0)
    let curves = form.strokes.filter { $0.track == "P1" && $0.kind == .forehand }.compactMap {
      StrokeCurves($0, series: form.series("P1")!)
    }
    XCTAssertGreaterThan(curves.count, 10)
    var largest = 0.0, largestMean = 0.0
    for c in curves.dropFirst() {
      for joint in FormJoint.allCases {
        let a = c.values[joint]!, r = curves[0].values[joint]!
        for k in a.indices { largest = max(largest, abs(a[k] - r[k])) }
        for phase in FormPhase.allCases {
          let mean = phase.samples.reduce(0) { $0 + a[$1] - r[$1] } / Double(phase.samples.count)
          largestMean = max(largestMean, abs(mean))
        }
      }
    }
    print("identical strokes: largest sample difference \(largest)°, largest phase mean \(largestMean)°")
    XCTAssertLessThan(largest, 3)
    XCTAssertLessThan(largestMean, 1)
  }

  /// 5°, 10°, 20°, 40° at contact in a racket-arm joint (each joint on two of P1's forehands, the same
  /// strokes at every size), scored against a reference saved from the match without errors (so that the
  /// six changed strokes do not move each other's reference): the score falls monotonically with the size, the joint is named first, the
  /// other joints' sub-scores move by at most 2 points, and the stroke ranks among the player's lowest
  /// forehands (10°: below at most 10 % of the normal ones, 20°: 2 %).
  func testInjectedDeviationsAreFoundAndRanked() throws {
    // Numbers among P1's strokes (1-based, time order) of every third forehand after the first two.
    let p1 = Self.baseline.strokes.filter { $0.track == "P1" }
    let chosen = Array(
      p1.indices.filter { p1[$0].kind == "forehand" }.dropFirst(2).enumerated().filter { $0.offset % 3 == 0 }
        .map { $0.element + 1 }.prefix(6))
    XCTAssertEqual(chosen.count, 6, "\(p1.count) P1 strokes")
    func joint(_ k: Int) -> RacketArmJoint { RacketArmJoint.allCases[k / 2] }
    // The reference a coach would save: the mean of P1's forehands of the match without errors.
    let reference = try XCTUnwrap(
      StrokeReference.make(
        name: "P1 forehands", strokes: Self.baselineForm.strokes.filter { $0.track == "P1" && $0.kind == .forehand },
        result: Self.baselineForm))
    XCTAssertNotNil(reference.spread)
    let base = FormComparison(Self.baselineForm, reference: reference)
    func entry(_ c: FormComparison, _ truth: SimulatedStroke) -> FormComparison.Entry? {
      c.entries.first { $0.stroke.track == "P1" && abs($0.stroke.contactFrame - truth.contactFrame) <= 1 }
    }
    var trials = 0, namedFirst = 0, commentedFirst = 0
    var failures: [String] = []
    var previous = [Int: Double]()
    for size in [5.0, 10, 20, 40] {
      let deviations = chosen.enumerated().map { StrokeDeviation(stroke: $0.element, joint: joint($0.offset), degrees: size) }
      let simulated = try TechniqueTruth.simulate(TechniqueTruth.config(deviations: deviations))
      let comparison = FormComparison(try TechniqueTruth.form(simulated), reference: reference)
      let injectedFrames = Set(simulated.strokes.filter { $0.deviation != nil }.map(\.contactFrame))
      XCTAssertEqual(injectedFrames.count, chosen.count, "truth marks the injected strokes")
      let normal = comparison.entries.filter { e in
        e.stroke.track == "P1" && e.stroke.kind == .forehand && !injectedFrames.contains { abs($0 - e.stroke.contactFrame) <= 1 }
      }
      for (k, number) in chosen.enumerated() {
        let formJoint = FormJoint(rawValue: joint(k).rawValue)!
        let truth = p1[number - 1]
        guard let e = entry(comparison, truth), let b = entry(base, truth) else {
          failures.append("\(size)°: stroke \(number) not found")
          continue
        }
        trials += 1
        if let last = previous[number], e.score.score >= last {
          failures.append("\(formJoint.rawValue) \(size)°: stroke \(number) scores \(e.score.score) ≥ \(last) at the smaller size")
        }
        previous[number] = e.score.score
        if e.score.joints.first?.joint == formJoint { namedFirst += 1 }
        if size >= 10 {
          if e.score.notes.first?.joint == formJoint { commentedFirst += 1 } else {
            failures.append("\(formJoint.rawValue) \(size)°: stroke \(number) first comment \(e.score.comments.first ?? "none")")
          }
        }
        var moved = 0.0
        for other in FormJoint.allCases where other != formJoint {
          let d = e.score.detail(other)!.subScore - b.score.detail(other)!.subScore
          if abs(d) > abs(moved) { moved = d }
        }
        if abs(moved) > 2 { failures.append("\(formJoint.rawValue) \(size)°: stroke \(number): another joint moved \(moved)") }
        // The share of the player's normal forehands that score lower.
        let below = Double(normal.filter { $0.score.score < e.score.score }.count) / Double(max(1, normal.count))
        if size == 10, below > 0.10 { failures.append("\(formJoint.rawValue) 10°: stroke \(number) above \(below) of the forehands") }
        if size == 20, below > 0.02 { failures.append("\(formJoint.rawValue) 20°: stroke \(number) above \(below) of the forehands") }
        print(
          "\(formJoint.rawValue) \(Int(size))° #\(number): score \(b.score.score) → \(e.score.score), below \(String(format: "%.3f", below)) of \(normal.count), others moved ≤ \(String(format: "%.2f", abs(moved))); \(e.score.comments.first ?? "-")")
      }
    }
    let summary = "\(trials) trials: named first \(namedFirst), first comment (≥ 10°) \(commentedFirst)"
    print(summary)
    XCTAssertEqual(failures, [], failures.prefix(12).joined(separator: "\n"))
    XCTAssertGreaterThanOrEqual(Double(namedFirst), 0.95 * Double(trials), summary)
  }
}
