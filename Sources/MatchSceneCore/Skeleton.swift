/// A named set of body keypoints with the bones that join them.
public struct Skeleton: Sendable, Equatable, Hashable {
  /// Identifier used in `match.toml` and on the command line, e.g. `coco17`.
  public var name: String
  /// Keypoint names in detector order.
  public var keypoints: [String]
  /// Bones as pairs of keypoint indices (parent first).
  public var bones: [(Int, Int)]
  /// Left/right mirror pairs as keypoint indices (left first).
  public var mirrorPairs: [(Int, Int)]
  /// Roles given explicitly (a custom skeleton's `roles` table); nil derives them from the keypoint
  /// names (see `roles`).
  public var explicitRoles: [JointRole: Int]?

  public init(
    name: String, keypoints: [String], bones: [(String, String)], mirrorPairs: [(String, String)]? = nil,
    roles: [JointRole: String]? = nil
  ) {
    self.name = name
    self.keypoints = keypoints
    let index = Dictionary(uniqueKeysWithValues: keypoints.enumerated().map { ($1, $0) })
    self.bones = bones.compactMap { a, b in
      guard let i = index[a], let j = index[b] else { return nil }
      return (i, j)
    }
    if let mirrorPairs {
      self.mirrorPairs = mirrorPairs.compactMap { a, b in
        guard let i = index[a], let j = index[b] else { return nil }
        return (i, j)
      }
    } else {
      // Derive from names: left_X ↔ right_X (also LX ↔ RX).
      var pairs: [(Int, Int)] = []
      for (i, name) in keypoints.enumerated() {
        if name.hasPrefix("left_"), let j = index["right_" + name.dropFirst(5)] { pairs.append((i, j)) }
        else if name.hasPrefix("L"), name.count > 1, name.dropFirst().first!.isUppercase,
          let j = index["R" + name.dropFirst()]
        { pairs.append((i, j)) }
      }
      self.mirrorPairs = pairs
    }
    self.explicitRoles = roles.map { $0.compactMapValues { index[$0] } }
  }

  public var count: Int { keypoints.count }

  /// Index of a keypoint by name.
  public func index(of keypoint: String) -> Int? { keypoints.firstIndex(of: keypoint) }

  public static func == (a: Skeleton, b: Skeleton) -> Bool {
    a.name == b.name && a.keypoints == b.keypoints && a.bones.elementsEqual(b.bones, by: ==)
      && a.mirrorPairs.elementsEqual(b.mirrorPairs, by: ==) && a.explicitRoles == b.explicitRoles
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(keypoints)
  }

  /// COCO-17, the keypoints of COCO, RTMPose, YOLO-pose and OpenPose's COCO model.
  public static let coco17 = Skeleton(
    name: "coco17",
    keypoints: [
      "nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder",
      "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee",
      "right_knee", "left_ankle", "right_ankle",
    ],
    bones: [
      ("nose", "left_eye"), ("nose", "right_eye"), ("left_eye", "left_ear"), ("right_eye", "right_ear"),
      ("left_shoulder", "right_shoulder"), ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"),
      ("right_shoulder", "right_elbow"), ("right_elbow", "right_wrist"), ("left_shoulder", "left_hip"),
      ("right_shoulder", "right_hip"), ("left_hip", "right_hip"), ("left_hip", "left_knee"),
      ("left_knee", "left_ankle"), ("right_hip", "right_knee"), ("right_knee", "right_ankle"),
    ])

}
