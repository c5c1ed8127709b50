/// The stretches of a registered stroke (`StrokeCurves`) a deviation is reported in, and how much each
/// counts in the score: what happens at and just before the contact decides the ball, the backswing and
/// the follow-through less (the phases of e.g. Kibler, Clin. Sports Med. 14 (1995) 79–85).
public enum FormPhase: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
  case backswing
  case forwardSwing = "forward_swing"
  case contact
  case followThrough = "follow_through"

  /// Samples either side of `StrokeCurves.contactSample` that make up `contact` (about ±30 ms).
  public static let contactHalfWidth = 4

  /// The samples of the phase.
  public var samples: ClosedRange<Int> {
    let c = StrokeCurves.contactSample, h = Self.contactHalfWidth
    switch self {
    case .backswing: return 0...(StrokeCurves.forwardSwingSample - 1)
    case .forwardSwing: return StrokeCurves.forwardSwingSample...(c - h - 1)
    case .contact: return (c - h)...(c + h)
    case .followThrough: return (c + h + 1)...(StrokeCurves.sampleCount - 1)
    }
  }

  /// Weight in a joint's sub-score (they sum to 1).
  public var weight: Double {
    switch self {
    case .backswing: 0.15
    case .forwardSwing: 0.3
    case .contact: 0.4
    case .followThrough: 0.15
    }
  }

  /// "at contact", "in the backswing".
  public var words: String {
    switch self {
    case .backswing: "in the backswing"
    case .forwardSwing: "in the forward swing"
    case .contact: "at contact"
    case .followThrough: "in the follow-through"
    }
  }

  /// The phase of sample `k`.
  public static func of(sample k: Int) -> FormPhase {
    allCases.first { $0.samples.contains(k) } ?? .followThrough
  }
}

extension FormJoint {
  /// How much the joint counts in a stroke's score, by stroke kind: the racket arm and the trunk make the
  /// stroke, the legs carry it, the free leg least.
  ///
  /// | joint | forehand, backhand | serve |
  /// | --- | --- | --- |
  /// | elbow, shoulder elevation, shoulder plane | 3 | 3 |
  /// | trunk rotation | 2 | 2 |
  /// | trunk lean | 1.5 | 2 |
  /// | racket-side knee, racket-side hip | 1 | 1 |
  /// | free-side knee, free-side hip | 0.5 | 0.5 |
  public func weight(_ kind: StrokeKind) -> Double {
    switch self {
    case .elbow, .shoulderElevation, .shoulderPlane: 3
    case .trunkRotation: 2
    case .trunkLean: kind == .serve ? 2 : 1.5
    case .racketKnee, .racketHip: 1
    case .freeKnee, .freeHip: 0.5
    }
  }
}

extension StrokeCurves {
  /// The frames `phase` spans in this stroke (at least 1; 1 when the frame rate is unknown).
  func frames(_ phase: FormPhase) -> Double {
    guard let fps else { return 1 }
    let seconds = timeFromContact(sample: phase.samples.upperBound) - timeFromContact(sample: phase.samples.lowerBound)
    return max(1, seconds * fps)
  }
}
