import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO

/// The strokes of the review app: `matchscene form`'s analysis and scores (against each player's own
/// average stroke of the kind, or a saved reference), with every stroke's angle curves.
public enum ReviewStrokes {
  /// The angles plotted, in `FormJoint` order, with the words the page shows.
  static let labels: [FormJoint: String] = [
    .elbow: "racket elbow flexion", .shoulderElevation: "racket shoulder elevation",
    .shoulderPlane: "racket shoulder plane (forward +)", .trunkRotation: "trunk rotation (to racket side +)",
    .trunkLean: "trunk lean (forward +)", .racketKnee: "racket-side knee flexion", .freeKnee: "free-side knee flexion",
    .racketHip: "racket-side hip flexion", .freeHip: "free-side hip flexion",
  ]

  /// Runs the form analysis on `output` and adds its strokes, references, angles and phases to `data`.
  /// - Throws: what `form` would (no players, malformed files, an unreadable reference).
  public static func add(to data: inout ReviewData, output: MatchOutput, reference: URL?) throws {
    let input = try FormInput.load(output)
    try input.checkAnalysable(output.folder)
    let result = try FormAnalysis.run(motion: input.motion, venue: input.venue, events: input.events, options: FormOptions())
    let comparison = FormComparison(result, reference: try reference.map { try StrokeReference.read(from: $0) })
    let fps = result.motion.fps
    func curves(_ c: StrokeCurves) -> [String: [Double]] {
      Dictionary(uniqueKeysWithValues: c.values.map { ($0.key.rawValue, reviewRounded($0.value)) })
    }
    for entry in comparison.entries {
      let s = entry.stroke
      let key = "\(s.track)/\(s.kind.rawValue)/\(entry.referenceName)"
      if data.references[key] == nil {
        var spread: [String: [Double]] = [:]
        for (joint, row) in entry.spread?.degrees ?? [:] { spread[joint.rawValue] = reviewRounded(row, decimals: 2) }
        data.references[key] = ReviewReference(curves: curves(entry.reference), spread: spread)
      }
      // Times from the contact's (match time), so a sparse match's compact frames do not shift them.
      let start = s.contactTime - Double(s.contactFrame - s.backswingStartFrame) / fps
      let end = s.contactTime + Double(s.followThroughEndFrame - s.contactFrame) / fps
      data.strokes.append(
        ReviewStroke(
          track: s.track, number: s.number, kind: s.kind.rawValue, hand: s.hand.rawValue, start: start, contact: s.contactTime,
          end: end, rally: s.rally, score: (entry.score.score * 10).rounded() / 10, referenceName: entry.referenceName,
          reference: key, comments: entry.score.comments, contactHeight: s.contactHeight,
          handSpeed: s.handSpeedAtContact, ballSpeed: s.ballSpeedAfter,
          joints: entry.score.joints.map {
            ReviewJointScore(
              joint: $0.joint.rawValue, weight: $0.weight, subScore: ($0.subScore * 10).rounded() / 10,
              deviation: ($0.deviation * 100).rounded() / 100, largestPhase: $0.largestPhase.rawValue,
              largestDegrees: ($0.largestDeviation * 10).rounded() / 10)
          },
          curves: curves(entry.curves)))
    }
    data.strokes.sort { $0.contact < $1.contact }
    data.angles = FormJoint.allCases.map { ReviewAngle(key: $0.rawValue, label: labels[$0] ?? $0.rawValue) }
    data.phases = FormPhase.allCases.map { ReviewPhase(name: $0.rawValue, first: $0.samples.lowerBound, last: $0.samples.upperBound) }
  }
}
