/// What a keypoint is on the body, whatever a detector calls it: stages look joints up by role
/// (`skeleton.index(of: .leftWrist)`), never by name, so custom skeletons work everywhere.
public enum JointRole: String, Sendable, Codable, CaseIterable {
  case nose, head, neck
  case leftEye = "left_eye", rightEye = "right_eye", leftEar = "left_ear", rightEar = "right_ear"
  case leftShoulder = "left_shoulder", rightShoulder = "right_shoulder"
  case leftElbow = "left_elbow", rightElbow = "right_elbow"
  case leftWrist = "left_wrist", rightWrist = "right_wrist"
  /// The hip centre (OpenPose `MidHip`, HALPE `hip`, Pose2Sim `Hip`).
  case midHip = "mid_hip"
  case leftHip = "left_hip", rightHip = "right_hip"
  case leftKnee = "left_knee", rightKnee = "right_knee"
  case leftAnkle = "left_ankle", rightAnkle = "right_ankle"
  case leftHeel = "left_heel", rightHeel = "right_heel"
  case leftBigToe = "left_big_toe", rightBigToe = "right_big_toe"
  case leftSmallToe = "left_small_toe", rightSmallToe = "right_small_toe"

  /// The role of the body's other side (itself for the midline).
  public var mirrored: JointRole {
    let raw = rawValue
    if raw.hasPrefix("left_") { return JointRole(rawValue: "right_" + raw.dropFirst(5)) ?? self }
    if raw.hasPrefix("right_") { return JointRole(rawValue: "left_" + raw.dropFirst(6)) ?? self }
    return self
  }

  /// The role a keypoint name denotes, in the spellings detectors use: snake_case (`left_wrist`, COCO,
  /// HALPE, MediaPipe), CamelCase with a side letter (`LWrist`, OpenPose and Pose2Sim), or spelled out
  /// (`LeftWrist`); nil for a name with no role here (`left_pinky`, `mouth_left`).
  public static func named(_ name: String) -> JointRole? {
    let key = name.lowercased().filter { $0.isLetter }
    if let centre = centreNames[key] { return centre }
    for (prefix, side) in [("left", "left_"), ("right", "right_"), ("l", "left_"), ("r", "right_")] {
      guard key.hasPrefix(prefix), let part = sideParts[String(key.dropFirst(prefix.count))] else { continue }
      return JointRole(rawValue: side + part)
    }
    return nil
  }

  private static let centreNames: [String: JointRole] = [
    "nose": .nose, "head": .head, "headtop": .head, "tophead": .head, "neck": .neck, "thorax": .neck,
    "midhip": .midHip, "hip": .midHip, "pelvis": .midHip, "hipcentre": .midHip, "hipcenter": .midHip,
  ]

  /// Name endings after the side → the part in `rawValue` spelling.
  private static let sideParts: [String: String] = [
    "eye": "eye", "ear": "ear", "shoulder": "shoulder", "elbow": "elbow", "wrist": "wrist", "hip": "hip",
    "knee": "knee", "ankle": "ankle", "heel": "heel", "bigtoe": "big_toe", "smalltoe": "small_toe",
  ]
}

extension Skeleton {
  /// The keypoint index of each role the skeleton has, from its keypoint names (`JointRole.named`)
  /// unless given explicitly.
  public var roles: [JointRole: Int] {
    if let explicitRoles { return explicitRoles }
    var out: [JointRole: Int] = [:]
    for (i, name) in keypoints.enumerated() {
      if let role = JointRole.named(name), out[role] == nil { out[role] = i }
    }
    return out
  }

  /// The keypoint index of `role`, nil when the skeleton has no such keypoint.
  public func index(of role: JointRole) -> Int? { roles[role] }

  /// The indices of those of `roles` the skeleton has, in order.
  public func indices(of roles: [JointRole]) -> [Int] {
    let table = self.roles
    return roles.compactMap { table[$0] }
  }

  /// The left and right wrists (the racket hand is one of them).
  public var wrists: [Int] { indices(of: [.leftWrist, .rightWrist]) }

  /// Shoulders and hips: the torso, whose centre places a person.
  public var torso: [Int] { indices(of: [.leftShoulder, .rightShoulder, .leftHip, .rightHip]) }
}
