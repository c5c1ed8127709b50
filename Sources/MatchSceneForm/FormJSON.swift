import Foundation
import MatchSceneCore

/// `form.json`, beside `form.html`: every scored stroke's score, per-joint sub-scores (with each phase's
/// deviation, spread and z) and comments, machine-readable; keys sorted, camelCase as the other outputs.
/// Frames are the real ones (`FrameAxis`). `formula` names the scoring constants so that a reader can
/// tell which scores compare.
public enum FormJSON {
  public static let formatName = "matchscene-form"

  struct File: Encodable {
    var format = FormJSON.formatName
    var version = 1
    var formula: Formula
    var strokes: [Stroke]
  }

  struct Formula: Encodable {
    var subScore = "100/(1+(Z/scale)^2), Z^2 = sum over phases of w_p*(D_p/spread_p)^2"
    var score = "sum over joints of W_j*subScore_j / sum of W_j"
    var scale = FormScore.scale
    var assumedSpread = FormScore.assumedSpread
    var minimumSpread = FormScore.minimumSpread
    var commentSpreads = FormScore.commentSpreads
    var minimumComment = FormScore.minimumComment
    var phaseWeights = Dictionary(uniqueKeysWithValues: FormPhase.allCases.map { ($0.rawValue, $0.weight) })
    var phaseSamples = Dictionary(uniqueKeysWithValues: FormPhase.allCases.map { ($0.rawValue, [$0.samples.lowerBound, $0.samples.upperBound]) })
    var landmarkSamples = [
      "backswingStart": 0, "forwardSwingStart": StrokeCurves.forwardSwingSample,
      "contact": StrokeCurves.contactSample, "followThroughEnd": StrokeCurves.sampleCount - 1,
    ]
  }

  struct Stroke: Encodable {
    var track: String
    var number: Int
    var kind: StrokeKind
    var contactFrame: Int
    var contactTime: Double
    var reference: String
    var referenceStrokes: Int?
    var score: Double
    var joints: [FormScore.JointDetail]
    var comments: [FormScore.Comment]
  }

  /// The file's bytes; `axis` gives each stroke its real frame and time.
  public static func data(_ comparison: FormComparison, axis: FrameAxis = .identity, fps: Double) throws -> Data {
    let strokes = comparison.entries.map { e in
      Stroke(
        track: e.stroke.track, number: e.stroke.number, kind: e.stroke.kind, contactFrame: axis.real(e.stroke.contactFrame),
        contactTime: axis.isIdentity ? e.stroke.contactTime : axis.realTime(e.stroke.contactTime, frame: e.stroke.contactFrame, fps: fps),
        reference: e.referenceName, referenceStrokes: e.spread?.strokes, score: e.score.score, joints: e.score.joints,
        comments: e.score.notes)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try encoder.encode(File(formula: Formula(), strokes: strokes))
  }
}
