#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How one stroke compares with a reference, on curves registered at their landmarks (`StrokeCurves`).
///
/// The formula (stable: it depends on nothing but the two strokes' curves, the reference's spread and
/// the stroke's kind):
/// - per joint j and phase p (`FormPhase`), the deviation D = mean over the phase's samples of
///   (stroke − reference), degrees (periodic angles wrapped to ±180°);
/// - its unit σ = max(the reference's stroke-to-stroke spread there (`ReferenceSpread`; `assumedSpread`
///   when it has too few strokes), the measurement σ of the reference's phase mean (`AngleUncertainty`'s
///   per-frame σ, RMS over the phase, over √(frames in the phase); the stroke's when the reference has
///   none), `minimumSpread`); z = D / σ — the units are the reference's, whatever the stroke judged;
/// - the joint's deviation Z_j = √(Σ_p w_p z²) with the phase weights w_p (contact 0.4, forward swing
///   0.3, backswing and follow-through 0.15), and its sub-score s_j = 100 / (1 + (Z_j / 4)²): 94 at
///   one spread, 80 at two, 50 at four, 14 at ten — falling on through large deviations, so a larger
///   error always costs more, and gently near one spread, so noise in a joint hardly moves it;
/// - the score is Σ_j W_j s_j / Σ_j W_j with the joint weights W_j of the stroke's kind
///   (`FormJoint.weight`), rounded to 0.1.
/// A comment is made for a joint and phase only where |D| is at least `commentSpreads` σ and at least
/// `minimumComment` degrees: "elbow 12° more bent at contact than your reference".
public struct FormScore: Sendable, Codable, Equatable {
  /// The sub-score's scale, in spreads: Z = `scale` gives 50.
  public static let scale = 4.0
  /// The spread assumed when the reference has fewer than `ReferenceSpread.minimumStrokes` strokes, degrees.
  public static let assumedSpread = 3.0
  /// No spread is smaller, degrees.
  public static let minimumSpread = 0.5
  /// A comment needs a deviation of at least this many spreads…
  public static let commentSpreads = 3.5
  /// …and at least this many degrees.
  public static let minimumComment = 5.0
  /// At most this many comments per stroke.
  public static let maximumComments = 3

  /// One joint in one phase.
  public struct PhaseDeviation: Sendable, Codable, Equatable {
    public var phase: FormPhase
    /// Mean of stroke − reference over the phase, degrees.
    public var degrees: Double
    /// The unit σ, degrees.
    public var spread: Double
    /// degrees / spread.
    public var z: Double
  }

  public struct JointDetail: Sendable, Codable, Equatable {
    public var joint: FormJoint
    /// W_j for the stroke's kind.
    public var weight: Double
    /// 0…100.
    public var subScore: Double
    /// Z_j, in spreads.
    public var deviation: Double
    public var phases: [PhaseDeviation]
    /// Root-mean-square deviation over the whole stroke, degrees.
    public var rmsDeviation: Double
    /// The phase with the largest |z|, its mean deviation (degrees, signed) and its middle in seconds
    /// from contact.
    public var largestPhase: FormPhase
    public var largestDeviation: Double
    public var largestAtSeconds: Double
  }

  /// A comment and what it is about.
  public struct Comment: Sendable, Codable, Equatable {
    public var joint: FormJoint
    public var phase: FormPhase
    /// Signed, degrees.
    public var degrees: Double
    /// In spreads.
    public var z: Double
    public var text: String
  }

  public var score: Double
  /// Worst first (lowest sub-score).
  public var joints: [JointDetail]
  /// Worst first (largest |z|).
  public var notes: [Comment]
  /// The comments' texts.
  public var comments: [String] { notes.map(\.text) }

  public func detail(_ joint: FormJoint) -> JointDetail? { joints.first { $0.joint == joint } }

  /// The mean of `a − r` (wrapped for periodic joints) over `phase`'s samples.
  static func phaseMean(_ a: [Double], _ r: [Double], _ joint: FormJoint, _ phase: FormPhase) -> Double {
    var sum = 0.0
    for k in phase.samples {
      var d = a[k] - r[k]
      if joint.isPeriodic { d -= 360 * (d / 360).rounded() }
      sum += d
    }
    return sum / Double(phase.samples.count)
  }

  /// Compares `stroke` with `reference`.
  /// - Parameters:
  ///   - spread: the reference's stroke-to-stroke spread; nil uses `assumedSpread`.
  ///   - kind: the stroke's kind, for the joint weights.
  ///   - referenceName: how comments name the reference ("your reference").
  public static func compare(
    _ stroke: StrokeCurves, with reference: StrokeCurves, spread: ReferenceSpread? = nil, kind: StrokeKind = .forehand,
    referenceName: String = "your reference"
  ) -> FormScore {
    var details: [JointDetail] = []
    var notes: [Comment] = []
    for joint in FormJoint.allCases {
      guard let a = stroke.values[joint], let r = reference.values[joint] else { continue }
      var sumSquares = 0.0
      for k in a.indices {
        var d = a[k] - r[k]
        if joint.isPeriodic { d -= 360 * (d / 360).rounded() }
        sumSquares += d * d
      }
      var phases: [PhaseDeviation] = []
      var z2 = 0.0
      for phase in FormPhase.allCases {
        let d = phaseMean(a, r, joint, phase)
        // The ruler is the reference's: the stroke judged does not change the units it is judged in.
        let ruler = reference.measurementSD == nil ? stroke : reference
        let measured = ruler.measurementSD?[joint].map { sd in
          (phase.samples.reduce(0) { $0 + sd[$1] * sd[$1] } / Double(phase.samples.count) / ruler.frames(phase)).squareRoot()
        } ?? 0
        let sigma = max(spread?.degrees(joint, phase) ?? assumedSpread, measured.isFinite ? measured : 0, minimumSpread)
        let z = d / sigma
        z2 += phase.weight * z * z
        phases.append(PhaseDeviation(phase: phase, degrees: d, spread: sigma, z: z))
        if abs(d) >= minimumComment, abs(z) >= commentSpreads {
          notes.append(Comment(joint: joint, phase: phase, degrees: d, z: z, text: comment(joint, phase, d, referenceName)))
        }
      }
      let largest = phases.max { abs($0.z) < abs($1.z) }!
      let middle = (largest.phase.samples.lowerBound + largest.phase.samples.upperBound) / 2
      details.append(
        JointDetail(
          joint: joint, weight: joint.weight(kind), subScore: 100 / (1 + z2 / (scale * scale)), deviation: z2.squareRoot(),
          phases: phases, rmsDeviation: (sumSquares / Double(a.count)).squareRoot(), largestPhase: largest.phase,
          largestDeviation: largest.degrees, largestAtSeconds: stroke.timeFromContact(sample: middle)))
    }
    // Worst first; ties in `FormJoint` order, so the order is stable.
    let order = Dictionary(uniqueKeysWithValues: FormJoint.allCases.enumerated().map { ($1, $0) })
    details.sort { $0.subScore != $1.subScore ? $0.subScore < $1.subScore : order[$0.joint]! < order[$1.joint]! }
    let phaseOrder = Dictionary(uniqueKeysWithValues: FormPhase.allCases.enumerated().map { ($1, $0) })
    notes.sort {
      if abs($0.z) != abs($1.z) { return abs($0.z) > abs($1.z) }
      if $0.joint != $1.joint { return order[$0.joint]! < order[$1.joint]! }
      return phaseOrder[$0.phase]! < phaseOrder[$1.phase]!
    }
    // One comment per joint, its largest.
    var seen = Set<FormJoint>()
    notes = notes.filter { seen.insert($0.joint).inserted }
    let weights = details.reduce(0) { $0 + $1.weight }
    let score = details.reduce(0) { $0 + $1.weight * $1.subScore } / max(weights, 1e-9)
    return FormScore(score: (score * 10).rounded() / 10, joints: details, notes: Array(notes.prefix(maximumComments)))
  }

  /// "elbow 12° more bent at contact than your reference".
  static func comment(_ joint: FormJoint, _ phase: FormPhase, _ degrees: Double, _ referenceName: String) -> String {
    let w = joint.words
    return "\(w.name) \(Int(abs(degrees).rounded()))° \(degrees > 0 ? w.more : w.less) \(phase.words) than \(referenceName)"
  }
}
