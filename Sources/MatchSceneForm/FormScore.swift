#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How one stroke compares with a reference.
///
/// The formula (stable: it depends on nothing but the two strokes' curves):
/// - align the two strokes' samples with `StrokeAlignment` (racket-hand speed, phase by phase);
/// - per joint j, the deviation d_j is the root mean square of (stroke − reference) over the aligned
///   pairs, degrees (periodic angles wrapped to ±180°);
/// - the joint's sub-score is s_j = 100 · exp(−d_j / 30°): 100 for no deviation, 72 for 10°, 26 for 40°;
/// - the score is the mean of the sub-scores over `FormJoint.allCases`, rounded to 0.1.
public struct FormScore: Sendable, Codable, Equatable {
  /// The scale of the sub-scores, degrees: a joint `scale` off all through the stroke scores 100/e.
  public static let scale = 30.0

  public struct JointDetail: Sendable, Codable, Equatable {
    public var joint: FormJoint
    /// 0…100.
    public var subScore: Double
    /// Root-mean-square deviation, degrees.
    public var rmsDeviation: Double
    /// The largest deviation (stroke − reference, degrees, signed) and where: the stroke's sample (0…100 %
    /// of the normalised stroke, contact at 50) and seconds from contact.
    public var largestDeviation: Double
    public var largestAtPercent: Int
    public var largestAtSeconds: Double
  }

  public var score: Double
  /// Worst first (lowest sub-score).
  public var joints: [JointDetail]
  /// Plain-language comments on the worst joints, worst first.
  public var comments: [String]

  public func detail(_ joint: FormJoint) -> JointDetail? { joints.first { $0.joint == joint } }

  /// Compares `stroke` with `reference`.
  /// - Parameter commentThreshold: joints whose largest deviation is below this many degrees get no
  ///   comment; at most `maximumComments` comments.
  public static func compare(
    _ stroke: StrokeCurves, with reference: StrokeCurves, alignment: StrokeAlignment = StrokeAlignment(),
    commentThreshold: Double = 5, maximumComments: Int = 3
  ) -> FormScore {
    let path = alignment.path(stroke.speed, reference.speed)
    var details: [JointDetail] = []
    for joint in FormJoint.allCases {
      guard let a = stroke.values[joint], let r = reference.values[joint] else { continue }
      var sum = 0.0, largest = 0.0, at = path[0].0
      for (i, j) in path {
        var d = a[i] - r[j]
        if joint.isPeriodic { d -= 360 * (d / 360).rounded() }
        sum += d * d
        if abs(d) > abs(largest) {
          largest = d
          at = i
        }
      }
      let rms = (sum / Double(path.count)).squareRoot()
      details.append(
        JointDetail(
          joint: joint, subScore: 100 * exp(-rms / scale), rmsDeviation: rms, largestDeviation: largest,
          largestAtPercent: at, largestAtSeconds: stroke.timeFromContact(sample: at)))
    }
    // Worst first; ties in `FormJoint` order, so the order is stable.
    let order = Dictionary(uniqueKeysWithValues: FormJoint.allCases.enumerated().map { ($1, $0) })
    details.sort { $0.subScore != $1.subScore ? $0.subScore < $1.subScore : order[$0.joint]! < order[$1.joint]! }
    let score = (details.reduce(0) { $0 + $1.subScore } / Double(max(1, details.count)) * 10).rounded() / 10
    let comments = details.filter { abs($0.largestDeviation) >= commentThreshold }.prefix(maximumComments).map(comment)
    return FormScore(score: score, joints: details, comments: Array(comments))
  }

  /// "elbow 25° more bent than the reference at contact".
  static func comment(_ d: JointDetail) -> String {
    let w = d.joint.words
    let when: String
    switch d.largestAtPercent {
    case ..<(StrokeCurves.contactSample - 5): when = "in the backswing"
    case (StrokeCurves.contactSample - 5)...(StrokeCurves.contactSample + 5): when = "at contact"
    default: when = "in the follow-through"
    }
    let degrees = Int(abs(d.largestDeviation).rounded())
    return "\(w.name) \(degrees)° \(d.largestDeviation > 0 ? w.more : w.less) than the reference \(when) (\(d.joint.rawValue), "
      + String(format: "%+.2f s from contact)", d.largestAtSeconds)
  }
}
