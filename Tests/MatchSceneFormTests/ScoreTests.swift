import Foundation
import MatchSceneCore
import MatchSceneForm
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The 0–100 score: a stroke against itself, and deviations injected into one joint.
final class ScoreTests: XCTestCase {
  /// Curves of every stroke of the 20 s default-noise match (reconstructed).
  static let curves: [StrokeCurves] = {
    let form = try! noisyFixture.form()
    return form.strokes.compactMap { s in StrokeCurves(s, series: form.series(s.track)!) }
  }()

  func testStrokeAgainstItselfScores100() throws {
    XCTAssertGreaterThanOrEqual(Self.curves.count, 8, "the 20 s match has strokes enough to compare")
    for c in Self.curves {
      let score = FormScore.compare(c, with: c)
      XCTAssertEqual(score.score, 100)
      XCTAssertEqual(score.comments, [])
      XCTAssertEqual(Set(score.joints.map(\.joint)), Set(FormJoint.allCases))
    }
    // The same input always gives the same score; different strokes score below 100.
    let a = FormScore.compare(Self.curves[0], with: Self.curves[1])
    XCTAssertEqual(a, FormScore.compare(Self.curves[0], with: Self.curves[1]))
    XCTAssertLessThan(a.score, 100)
  }

  /// Deviations of 5°, 10°, 20°, 40° in one joint of otherwise identical strokes (each sample of every
  /// joint also given 0.3° of Gaussian noise, so that nothing is exactly equal): the score never rises
  /// with the size and is lower at 40° than without, the joint comes first in the detail and in the first comment in ≥ 95 % of trials,
  /// and every other joint's sub-score stays within 2 points of its value without the deviation.
  func testInjectedDeviationIsFoundAndScored() throws {
    var rng = SeededGenerator(seed: 12)
    var trials = 0, namedFirst = 0, commentedFirst = 0
    var failures: [String] = []
    for (n, reference) in Self.curves.enumerated() {
      for joint in FormJoint.allCases {
        var noisy = reference
        for j in FormJoint.allCases {
          noisy.values[j] = noisy.values[j]!.map { $0 + 0.3 * rng.gaussian() }
        }
        let baseline = FormScore.compare(noisy, with: reference)
        // Constant offset for even strokes, a bump of 20 % of the stroke around a random moment for odd.
        let centre = Double(Int.random(in: 10...90, using: &rng))
        let sign: Double = rng.next() % 2 == 0 ? 1 : -1
        var previous = baseline.score
        for size in [5.0, 10, 20, 40] {
          var injected = noisy
          injected.values[joint] = injected.values[joint]!.enumerated().map { k, v in
            let shape = n % 2 == 0 ? 1 : exp(-0.5 * pow((Double(k) - centre) / 10, 2))
            return v + sign * size * shape
          }
          let score = FormScore.compare(injected, with: reference)
          trials += 1
          // Scores are rounded to 0.1: a small bump in a light joint may not move them; never up.
          if score.score > previous { failures.append("\(joint.rawValue) \(size)°: \(score.score) > \(previous)") }
          if size == 40, score.score >= baseline.score { failures.append("\(joint.rawValue) 40°: \(score.score) ≥ \(baseline.score)") }
          previous = score.score
          if score.joints.first?.joint == joint { namedFirst += 1 }
          // A comment, when there is one, names the joint; from 20° on there is one (the assumed spread is 3°).
          if score.notes.first.map({ $0.joint == joint }) ?? (size < 20) { commentedFirst += 1 }
          for other in FormJoint.allCases where other != joint {
            let d = score.detail(other)!.subScore - baseline.detail(other)!.subScore
            if abs(d) > 2 { failures.append("\(joint.rawValue) \(size)°: \(other.rawValue) moved \(d)") }
          }
        }
      }
    }
    let summary = "\(trials) trials: named first \(namedFirst), first comment \(commentedFirst)"
    print(summary)
    XCTAssertEqual(failures, [], failures.prefix(10).joined(separator: "\n"))
    XCTAssertGreaterThanOrEqual(Double(namedFirst) / Double(trials), 0.95, summary)
    XCTAssertGreaterThanOrEqual(Double(commentedFirst) / Double(trials), 0.95, summary)
  }

  /// A comment in plain language, with the phase and the direction: the elbow 25° more bent at contact;
  /// none for a deviation within the spread or below the minimum size.
  func testCommentWording() throws {
    let reference = Self.curves[0]
    var bent = reference
    bent.values[.elbow] = reference.values[.elbow]!.enumerated().map { k, v in
      FormPhase.contact.samples.contains(k) ? v + 25 : v
    }
    let score = FormScore.compare(bent, with: reference)
    XCTAssertEqual(score.joints.first?.joint, .elbow)
    XCTAssertEqual(score.comments.first, "elbow 25° more bent at contact than your reference")
    XCTAssertEqual(score.notes.first?.phase, .contact)
    // 4° is under the minimum size; 8° in a joint whose spread is 4° is within 3.5 spreads.
    var small = reference
    small.values[.elbow] = reference.values[.elbow]!.map { $0 - 4 }
    XCTAssertEqual(FormScore.compare(small, with: reference).comments, [])
    func spread(_ degrees: Double) -> ReferenceSpread {
      ReferenceSpread(degrees: Dictionary(uniqueKeysWithValues: FormJoint.allCases.map { ($0, [degrees, degrees, degrees, degrees]) }), strokes: 20)
    }
    small.values[.elbow] = reference.values[.elbow]!.enumerated().map { k, v in FormPhase.backswing.samples.contains(k) ? v - 8 : v }
    XCTAssertEqual(FormScore.compare(small, with: reference, spread: spread(4)).comments, [])
    XCTAssertEqual(
      FormScore.compare(small, with: reference, spread: spread(1)).comments, ["elbow 8° straighter in the backswing than your reference"])
  }

  /// The joints' weights: the same deviation costs more in the racket arm than in the free leg, and more
  /// at contact than in the follow-through.
  func testWeightsByRoleAndPhase() throws {
    let reference = Self.curves[0]
    func score(_ joint: FormJoint, _ phase: FormPhase) -> Double {
      var c = reference
      c.values[joint] = reference.values[joint]!.enumerated().map { k, v in phase.samples.contains(k) ? v + 10 : v }
      return FormScore.compare(c, with: reference).score
    }
    XCTAssertLessThan(score(.elbow, .contact), score(.freeKnee, .contact))
    XCTAssertLessThan(score(.elbow, .contact), score(.elbow, .followThrough))
  }

  /// The reference file round-trips, and a reference of several strokes is their mean.
  func testReferenceFileRoundTrip() throws {
    let form = try noisyFixture.form()
    let strokes = form.strokes.filter { $0.kind == .forehand && $0.track == "P1" }
    let reference = try XCTUnwrap(StrokeReference.make(name: "P1 forehands", strokes: strokes, result: form))
    XCTAssertEqual(reference.sources.count, strokes.count)
    let url = try makeTemporaryFolder().appendingPathComponent("ref.json")
    try reference.write(to: url)
    XCTAssertEqual(try StrokeReference.read(from: url), reference)
    let ghost = try XCTUnwrap(reference.ghost)
    XCTAssertEqual(ghost.frames.count, strokes[0].followThroughEndFrame - strokes[0].backswingStartFrame + 1)
    // In the player's frame the hip centre at contact is above the origin.
    let contact = ghost.frames[ghost.contactIndex]
    let hip = zip(contact[11], contact[12]).map { ($0 + $1) / 2 }
    XCTAssertEqual(hip[0], 0, accuracy: 1e-9)
    XCTAssertEqual(hip[1], 0, accuracy: 1e-9)
    XCTAssertThrowsError(try StrokeReference.read(from: url.deletingLastPathComponent())) { error in
      XCTAssert("\(error)".contains("stroke reference"), "\(error)")
    }
  }
}

