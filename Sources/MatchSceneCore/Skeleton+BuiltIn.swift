/// The skeletons of common 2D detectors. Keypoint names are snake_case in detector order.
extension Skeleton {
  /// Skeletons known by name (`match.toml`'s `skeleton`, `--skeleton`).
  public static let builtIn: [String: Skeleton] = [
    "coco17": .coco17, "coco": .coco17, "halpe26": .halpe26, "body25": .body25, "blazepose33": .blazePose33,
    "mediapipe": .blazePose33,
  ]

  /// HALPE-26 (AlphaPose, RTMPose body7/halpe): COCO-17 plus head, neck, hip centre and feet.
  public static let halpe26 = Skeleton(
    name: "halpe26",
    keypoints: coco17.keypoints + [
      "head", "neck", "hip", "left_big_toe", "right_big_toe", "left_small_toe", "right_small_toe",
      "left_heel", "right_heel",
    ],
    bones: [
      ("head", "neck"), ("neck", "left_shoulder"), ("neck", "right_shoulder"), ("neck", "hip"),
      ("hip", "left_hip"), ("hip", "right_hip"), ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"),
      ("right_shoulder", "right_elbow"), ("right_elbow", "right_wrist"), ("left_hip", "left_knee"),
      ("left_knee", "left_ankle"), ("right_hip", "right_knee"), ("right_knee", "right_ankle"),
      ("left_ankle", "left_heel"), ("left_ankle", "left_big_toe"), ("left_big_toe", "left_small_toe"),
      ("right_ankle", "right_heel"), ("right_ankle", "right_big_toe"), ("right_big_toe", "right_small_toe"),
      ("nose", "left_eye"), ("nose", "right_eye"), ("left_eye", "left_ear"), ("right_eye", "right_ear"),
    ])

  /// OpenPose BODY_25.
  public static let body25 = Skeleton(
    name: "body25",
    keypoints: [
      "nose", "neck", "right_shoulder", "right_elbow", "right_wrist", "left_shoulder", "left_elbow",
      "left_wrist", "mid_hip", "right_hip", "right_knee", "right_ankle", "left_hip", "left_knee", "left_ankle",
      "right_eye", "left_eye", "right_ear", "left_ear", "left_big_toe", "left_small_toe", "left_heel",
      "right_big_toe", "right_small_toe", "right_heel",
    ],
    bones: [
      ("neck", "nose"), ("neck", "right_shoulder"), ("right_shoulder", "right_elbow"), ("right_elbow", "right_wrist"),
      ("neck", "left_shoulder"), ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"), ("neck", "mid_hip"),
      ("mid_hip", "right_hip"), ("right_hip", "right_knee"), ("right_knee", "right_ankle"), ("mid_hip", "left_hip"),
      ("left_hip", "left_knee"), ("left_knee", "left_ankle"), ("nose", "right_eye"), ("right_eye", "right_ear"),
      ("nose", "left_eye"), ("left_eye", "left_ear"), ("left_ankle", "left_big_toe"), ("left_big_toe", "left_small_toe"),
      ("left_ankle", "left_heel"), ("right_ankle", "right_big_toe"), ("right_big_toe", "right_small_toe"),
      ("right_ankle", "right_heel"),
    ])

  /// MediaPipe BlazePose, 33 landmarks.
  public static let blazePose33 = Skeleton(
    name: "blazepose33",
    keypoints: [
      "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye", "right_eye_outer",
      "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder", "right_shoulder", "left_elbow",
      "right_elbow", "left_wrist", "right_wrist", "left_pinky", "right_pinky", "left_index", "right_index",
      "left_thumb", "right_thumb", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
      "right_ankle", "left_heel", "right_heel", "left_foot_index", "right_foot_index",
    ],
    bones: [
      ("left_shoulder", "right_shoulder"), ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"),
      ("right_shoulder", "right_elbow"), ("right_elbow", "right_wrist"), ("left_wrist", "left_index"),
      ("left_wrist", "left_pinky"), ("left_wrist", "left_thumb"), ("right_wrist", "right_index"),
      ("right_wrist", "right_pinky"), ("right_wrist", "right_thumb"), ("left_shoulder", "left_hip"),
      ("right_shoulder", "right_hip"), ("left_hip", "right_hip"), ("left_hip", "left_knee"),
      ("left_knee", "left_ankle"), ("right_hip", "right_knee"), ("right_knee", "right_ankle"),
      ("left_ankle", "left_heel"), ("left_heel", "left_foot_index"), ("right_ankle", "right_heel"),
      ("right_heel", "right_foot_index"), ("nose", "left_eye"), ("nose", "right_eye"), ("left_eye", "left_ear"),
      ("right_eye", "right_ear"), ("mouth_left", "mouth_right"),
    ],
    mirrorPairs: nil)
}
