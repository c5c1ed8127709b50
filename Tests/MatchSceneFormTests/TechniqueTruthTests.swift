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

  /// 5°, 10°, 20°, 40° at contact in each racket-arm joint, on several forehands of P1: the score falls
  /// monotonically with the size, the joint is named first, the other joints' sub-scores hardly move,
  /// and the stroke ranks among the player's lowest forehands.
  func testInjectedDeviationsAreFoundAndRanked() throws {
    // Numbers among P1's strokes (1-based, time order) of every fourth forehand after the first few.
    let p1 = Self.baseline.strokes.filter { $0.track == "P1" }
    let chosen = p1.indices.filter { p1[$0].kind == "forehand" }.dropFirst(2).enumerated().filter { $0.offset % 4 == 0 }
      .map { $0.element + 1 }.prefix(5)
    XCTAssertEqual(chosen.count, 5, "\(p1.count) P1 strokes")
    let base = FormComparison(Self.baselineForm)
    func entry(_ c: FormComparison, _ truth: SimulatedStroke) -> FormComparison.Entry? {
      c.entries.first { $0.stroke.track == "P1" && abs($0.stroke.contactFrame - truth.contactFrame) <= 1 }
    }
    var trials = 0, namedFirst = 0, commentedFirst = 0
    var failures: [String] = []
    var rows: [String] = []
    for joint in RacketArmJoint.allCases {
      let formJoint = FormJoint(rawValue: joint.rawValue)!
      var previous = [Int: Double]()
      for size in [5.0, 10, 20, 40] {
        let deviations = chosen.map { StrokeDeviation(stroke: $0, joint: joint, degrees: size) }
        let simulated = try TechniqueTruth.simulate(TechniqueTruth.config(deviations: deviations))
        let comparison = FormComparison(try TechniqueTruth.form(simulated))
        let injectedFrames = Set(simulated.strokes.filter { $0.deviation != nil }.map(\.contactFrame))
        XCTAssertEqual(injectedFrames.count, chosen.count, "truth marks the injected strokes")
        let normal = comparison.entries.filter { e in
          e.stroke.track == "P1" && e.stroke.kind == .forehand && !injectedFrames.contains { abs($0 - e.stroke.contactFrame) <= 1 }
        }
        for number in chosen {
          let truth = p1[number - 1]
          guard let e = entry(comparison, truth), let b = entry(base, truth) else {
            failures.append("\(joint) \(size)°: stroke \(number) not found")
            continue
          }
          trials += 1
          if let last = previous[number], e.score.score >= last {
            failures.append("\(joint.rawValue) \(size)°: stroke \(number) scores \(e.score.score) ≥ \(last) at the smaller size")
          }
          previous[number] = e.score.score
          if e.score.joints.first?.joint == formJoint { namedFirst += 1 }
          if size >= 10 {
            if e.score.notes.first?.joint == formJoint { commentedFirst += 1 } else {
              failures.append("\(joint.rawValue) \(size)°: stroke \(number) first comment \(e.score.comments.first ?? "none")")
            }
          }
          for other in FormJoint.allCases where other != formJoint {
            let d = e.score.detail(other)!.subScore - b.score.detail(other)!.subScore
            if abs(d) > 2 { failures.append("\(joint.rawValue) \(size)°: stroke \(number): \(other.rawValue) moved \(d)") }
          }
          // The share of the player's normal forehands that score lower.
          let below = Double(normal.filter { $0.score.score < e.score.score }.count) / Double(max(1, normal.count))
          if size == 10, below > 0.10 { failures.append("\(joint.rawValue) 10°: stroke \(number) above \(below) of the forehands") }
          if size == 20, below > 0.02 { failures.append("\(joint.rawValue) 20°: stroke \(number) above \(below) of the forehands") }
          rows.append(
            "\(joint.rawValue) \(Int(size))° #\(number): score \(b.score.score) → \(e.score.score), below \(String(format: "%.3f", below)) of \(normal.count); \(e.score.comments.first ?? "-")")
        }
      }
    }
    let summary = "\(trials) trials: named first \(namedFirst), first comment (≥ 10°) \(commentedFirst)"
    print(summary + "\n" + rows.joined(separator: "\n"))
    XCTAssertEqual(failures, [], failures.prefix(12).joined(separator: "\n"))
    XCTAssertGreaterThanOrEqual(Double(namedFirst), 0.95 * Double(trials), summary)
  }
}
