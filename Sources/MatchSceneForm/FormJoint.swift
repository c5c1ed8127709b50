/// The joints a stroke is scored on, named relative to the racket hand so that left- and right-handed
/// strokes compare (a left-hander's racket elbow is `elbow_flexion_l`).
public enum FormJoint: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
  case elbow, shoulderElevation = "shoulder_elevation", shoulderPlane = "shoulder_plane"
  case trunkRotation = "trunk_rotation", trunkLean = "trunk_lean"
  case racketKnee = "racket_knee", freeKnee = "free_knee", racketHip = "racket_hip", freeHip = "free_hip"

  /// The angle measured, for a racket hand on `side`.
  public func angle(racketSide side: BodySide) -> FormAngle {
    let right = side == .right
    switch self {
    case .elbow: return right ? .elbowFlexionRight : .elbowFlexionLeft
    case .shoulderElevation: return right ? .shoulderElevationRight : .shoulderElevationLeft
    case .shoulderPlane: return right ? .shoulderPlaneRight : .shoulderPlaneLeft
    case .trunkRotation: return .trunkRotation
    case .trunkLean: return .trunkLean
    case .racketKnee: return right ? .kneeFlexionRight : .kneeFlexionLeft
    case .freeKnee: return right ? .kneeFlexionLeft : .kneeFlexionRight
    case .racketHip: return right ? .hipFlexionRight : .hipFlexionLeft
    case .freeHip: return right ? .hipFlexionLeft : .hipFlexionRight
    }
  }

  /// Sign applied to the angle so that both hands read alike: the trunk's rotation is counted positive
  /// towards the racket side (clockwise seen from above for a right-hander).
  public func sign(racketSide side: BodySide) -> Double {
    self == .trunkRotation && side == .right ? -1 : 1
  }

  /// Whether differences wrap at ±180°.
  public var isPeriodic: Bool { angle(racketSide: .right).isPeriodic }

  /// Words for the comments: the joint's name, and what a positive and a negative difference mean.
  var words: (name: String, more: String, less: String) {
    switch self {
    case .elbow: ("elbow", "more bent", "straighter")
    case .shoulderElevation: ("upper arm", "higher", "lower")
    case .shoulderPlane: ("upper arm", "further forward", "further to the side")
    case .trunkRotation: ("trunk", "more turned to the racket side", "less turned to the racket side")
    case .trunkLean: ("trunk", "more forward", "more upright")
    case .racketKnee: ("racket-side knee", "more bent", "straighter")
    case .freeKnee: ("free-side knee", "more bent", "straighter")
    case .racketHip: ("racket-side hip", "more flexed", "less flexed")
    case .freeHip: ("free-side hip", "more flexed", "less flexed")
    }
  }
}
