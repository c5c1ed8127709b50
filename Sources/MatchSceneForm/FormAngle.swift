/// The joint angles and body measures MatchScene reports per player and frame, with their units and
/// documented ranges.
///
/// Angles follow the ISB recommendations (Wu et al., "ISB recommendation on definitions of joint
/// coordinate systems of various joints for the reporting of human joint motion — Part II: shoulder,
/// elbow, wrist and hand", J. Biomech. 38 (2005) 981–992; Part I: ankle, hip and spine, Wu et al.,
/// J. Biomech. 35 (2002) 543–548) as far as a keypoint skeleton allows:
/// - thorax frame: Y from the hip centre to the shoulder centre (up), Z along the shoulder line to the
///   right, X = Y × Z (forward);
/// - shoulder (thorax–humerus, Y-X-Y sequence): *elevation* is the angle between the humerus (elbow →
///   shoulder) and thorax Y, 0° arm hanging, 0…180°; *plane of elevation* is the first Y rotation, 0° in
///   the frontal plane (abduction), +90° forward flexion, −180…180° (left arm mirrored so that both read
///   alike); axial rotation needs a humeral epicondyle pair and is not reported;
/// - elbow and knee flexion: 180° minus the angle between the two segments, 0° straight, 0…180°;
/// - hip flexion: the thigh's angle in the pelvis sagittal plane, 0° thigh along −Y, positive knee
///   forward, −180…180°; the pelvis frame is level (two hip keypoints cannot show pelvic tilt): Z along
///   the hip line to the right, Y the venue's up made perpendicular to Z, X = Y × Z. So 0° is the thigh
///   hanging plumb, not along the trunk: this is the thigh's angle from the vertical, and OpenSim's
///   `hip_flexion` (measured from the pelvis segment) differs from it by the pelvis's tilt (more
///   flexion here when the pelvis tilts back, less when it tilts forward);
/// - trunk lean: the trunk axis (hip centre → shoulder centre) from the venue's vertical in the pelvis
///   sagittal plane, positive forward, −180…180°;
/// - trunk rotation relative to the pelvis (the "X-factor"): the signed angle from the hip line to the
///   shoulder line about the trunk axis, positive counter-clockwise seen from above (shoulders turned to
///   the player's left), −180…180°.
/// Every angle is computed directly from positions with `atan2`/`acos`, so it stays inside its range and
/// never jumps between equivalent values (90° and 270°, Sports2D issues #30, #31).
public enum FormAngle: String, CaseIterable, Sendable, Codable {
  case elbowFlexionLeft = "elbow_flexion_l", elbowFlexionRight = "elbow_flexion_r"
  case shoulderElevationLeft = "shoulder_elevation_l", shoulderElevationRight = "shoulder_elevation_r"
  case shoulderPlaneLeft = "shoulder_plane_l", shoulderPlaneRight = "shoulder_plane_r"
  case hipFlexionLeft = "hip_flexion_l", hipFlexionRight = "hip_flexion_r"
  case kneeFlexionLeft = "knee_flexion_l", kneeFlexionRight = "knee_flexion_r"
  case trunkLean = "trunk_lean"
  case trunkRotation = "trunk_rotation"

  /// Position in `allCases` (the column order of `angles.csv` and of `AngleSeries`).
  public var index: Int {
    switch self {
    case .elbowFlexionLeft: 0
    case .elbowFlexionRight: 1
    case .shoulderElevationLeft: 2
    case .shoulderElevationRight: 3
    case .shoulderPlaneLeft: 4
    case .shoulderPlaneRight: 5
    case .hipFlexionLeft: 6
    case .hipFlexionRight: 7
    case .kneeFlexionLeft: 8
    case .kneeFlexionRight: 9
    case .trunkLean: 10
    case .trunkRotation: 11
    }
  }

  /// The documented range, degrees.
  public var range: ClosedRange<Double> {
    switch self {
    case .elbowFlexionLeft, .elbowFlexionRight, .kneeFlexionLeft, .kneeFlexionRight,
      .shoulderElevationLeft, .shoulderElevationRight:
      0...180
    default: -180...180
    }
  }

  /// Whether the angle is periodic (differences wrap at ±180°).
  public var isPeriodic: Bool { range.lowerBound < 0 }

  /// The body side, nil for the trunk.
  public var side: BodySide? {
    if rawValue.hasSuffix("_l") { return .left }
    if rawValue.hasSuffix("_r") { return .right }
    return nil
  }

  /// The joint without its side: `elbow_flexion`.
  public var base: String { side == nil ? rawValue : String(rawValue.dropLast(2)) }
}

/// Left or right side of the body.
public enum BodySide: String, Sendable, Codable {
  case left, right
  public var other: BodySide { self == .left ? .right : .left }
}

/// The scalar body measures reported beside the angles.
public enum FormMeasure: String, CaseIterable, Sendable {
  /// Speed of the racket-hand wrist, m/s (central difference).
  case racketHandSpeed = "racket_hand_speed"
  /// Horizontal distance between the ankles, m.
  case stanceWidth = "stance_width"
  /// Approximate centre of mass in the venue frame, m (`SegmentTable`).
  case comX = "com_x", comY = "com_y", comZ = "com_z"

  public var unit: String { self == .racketHandSpeed ? "m/s" : "m" }

  /// Position in `allCases`.
  public var index: Int {
    switch self {
    case .racketHandSpeed: 0
    case .stanceWidth: 1
    case .comX: 2
    case .comY: 3
    case .comZ: 4
    }
  }
}
