/// The skeletons of common 2D detectors. Keypoint names are snake_case in detector order.
extension Skeleton {
  /// Skeletons known by name (`match.toml`'s `skeleton`, `--skeleton`).
  public static let builtIn: [String: Skeleton] = [
    "coco17": .coco17, "coco": .coco17, "halpe26": .halpe26, "body25": .body25, "body25b": .body25b,
    "blazepose33": .blazePose33, "mediapipe": .blazePose33,
  ]

  /// Every built-in skeleton once (without the aliases `coco` and `mediapipe`), sorted by name.
  public static var builtInSkeletons: [Skeleton] {
    var seen: Set<String> = []
    return builtIn.values.filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
  }

  /// Names of the built-in skeletons with `count` keypoints, sorted (`body25`, `body25b` for 25).
  public static func builtInNames(keypointCount count: Int) -> [String] {
    builtInSkeletons.filter { $0.count == count }.map(\.name)
  }

  /// For an error about detections with `count` keypoints: which built-in skeletons have that many
  /// and how to choose one, or that none has and how to define one. Never picks among several.
  public static func keypointCountHint(_ count: Int) -> String {
    let names = builtInNames(keypointCount: count)
    let how = "skeleton = \"\(names.last ?? "")\" in match.toml or --skeleton \(names.last ?? "")"
    switch names.count {
    case 0:
      let all = builtInSkeletons.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
      return "no built-in skeleton has \(count) keypoints (\(all)); define the detector's own with a [skeleton] table in match.toml"
    case 1:
      return "\(count) keypoints fit the built-in skeleton \(names[0]): set \(how)"
    default:
      return "\(count) keypoints fit several built-in skeletons (\(names.joined(separator: ", "))), so none is picked: "
        + "name the detector's, e.g. \(how)"
    }
  }

  /// `keypointCountHint` for a list of `numbers` values holding `perKeypoint` per keypoint, after
  /// "; ", or "" when the numbers do not divide into keypoints.
  public static func keypointCountHint(numbers: Int, perKeypoint: Int) -> String {
    numbers > 0 && numbers % perKeypoint == 0 ? "; " + keypointCountHint(numbers / perKeypoint) : ""
  }

  /// OpenPose BODY_25B (OpenPose `src/openpose/pose/poseParameters.cpp`, `POSE_BODY_25B_BODY_PARTS`;
  /// Pose2Sim `skeletons.py`, `BODY_25B`): COCO-17's keypoints in COCO-17's order, then OpenPose's
  /// UpperNeck and HeadTop, then the feet. Same count as BODY_25, different order.
  public static let body25b = Skeleton(
    name: "body25b",
    keypoints: coco17.keypoints + [
      "upper_neck", "head_top", "left_big_toe", "left_small_toe", "left_heel", "right_big_toe",
      "right_small_toe", "right_heel",
    ],
    bones: [
      ("upper_neck", "head_top"), ("head_top", "nose"), ("upper_neck", "left_shoulder"), ("upper_neck", "right_shoulder"),
      ("left_shoulder", "left_elbow"), ("left_elbow", "left_wrist"), ("right_shoulder", "right_elbow"),
      ("right_elbow", "right_wrist"), ("left_shoulder", "left_hip"), ("right_shoulder", "right_hip"),
      ("left_hip", "right_hip"), ("left_hip", "left_knee"), ("left_knee", "left_ankle"), ("right_hip", "right_knee"),
      ("right_knee", "right_ankle"), ("left_ankle", "left_heel"), ("left_ankle", "left_big_toe"),
      ("left_big_toe", "left_small_toe"), ("right_ankle", "right_heel"), ("right_ankle", "right_big_toe"),
      ("right_big_toe", "right_small_toe"), ("nose", "left_eye"), ("nose", "right_eye"), ("left_eye", "left_ear"),
      ("right_eye", "right_ear"),
    ])

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
