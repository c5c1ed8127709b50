/// Skeletons of devices that give 3D joints themselves.
extension Skeleton {
  /// The joints MatchScene keeps from an ARKit body anchor (`ARSkeletonDefinition.defaultBody3D`, 91
  /// joints), named by role; `ARKitBodyJSON.jointNames` maps ARKit's names onto them.
  public static let arkitBody = Skeleton(
    name: "arkit_body",
    keypoints: [
      "head", "nose", "left_eye", "right_eye", "neck", "left_shoulder", "right_shoulder", "left_elbow", "right_elbow",
      "left_wrist", "right_wrist", "mid_hip", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
      "right_ankle", "left_big_toe", "right_big_toe",
    ],
    bones: [
      ("neck", "head"), ("head", "nose"), ("nose", "left_eye"), ("nose", "right_eye"), ("neck", "left_shoulder"),
      ("neck", "right_shoulder"), ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"),
      ("right_shoulder", "right_elbow"), ("right_elbow", "right_wrist"), ("neck", "mid_hip"), ("mid_hip", "left_hip"),
      ("mid_hip", "right_hip"), ("left_hip", "left_knee"), ("left_knee", "left_ankle"), ("left_ankle", "left_big_toe"),
      ("right_hip", "right_knee"), ("right_knee", "right_ankle"), ("right_ankle", "right_big_toe"),
    ])

  /// The skeleton of `tracks.csv` joint names: the built-in (or `arkit_body`) skeleton with fewest
  /// keypoints that has every name; nil when none has.
  public static func covering(jointNames names: Set<String>) -> Skeleton? {
    (builtInSkeletons + [.arkitBody]).filter { names.isSubset(of: Set($0.keypoints)) }.min { $0.count < $1.count }
  }
}
