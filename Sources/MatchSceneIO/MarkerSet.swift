import MatchSceneCore

/// Which names the biomechanics files (TRC, C3D) give the markers.
public enum MarkerNames: String, Sendable, CaseIterable {
  /// The skeleton's own keypoint names (`left_wrist`), every keypoint, in the skeleton's order.
  case keypoints
  /// Pose2Sim's names (`LWrist`), in the order of Pose2Sim's skeleton trees (pre-order from the root,
  /// right side first), with `Hip` (mid-hips) and `Neck` (mid-shoulders) derived where the detector has no
  /// such keypoint, as Pose2Sim adds them for its OpenSim models (Pose2Sim `skeletons.py`, `COCO_17`,
  /// `HALPE_26`, `BODY_25B`; `common.add_neck_hip_coords`). Keypoints Pose2Sim's OpenSim marker sets do
  /// not use (eyes, ears, BlazePose's hands and face) are left out.
  case pose2sim
}

/// The markers written for one skeleton: each a keypoint or the midpoint of two.
public struct MarkerSet: Sendable, Equatable {
  public enum Source: Sendable, Equatable {
    case joint(Int)
    case midpoint(Int, Int)
  }
  public var names: [String]
  public var sources: [Source]

  /// Pose2Sim's marker order, each with the keypoint names that give it (first found wins) and, for
  /// `Hip` and `Neck`, the pair whose midpoint stands in when no keypoint gives it.
  private static let pose2simOrder: [(name: String, keypoints: [String], midpointOf: (String, String)?)] = [
    ("Hip", ["hip", "mid_hip"], ("left_hip", "right_hip")),
    ("RHip", ["right_hip"], nil), ("RKnee", ["right_knee"], nil), ("RAnkle", ["right_ankle"], nil),
    ("RBigToe", ["right_big_toe", "right_foot_index"], nil), ("RSmallToe", ["right_small_toe"], nil),
    ("RHeel", ["right_heel"], nil),
    ("LHip", ["left_hip"], nil), ("LKnee", ["left_knee"], nil), ("LAnkle", ["left_ankle"], nil),
    ("LBigToe", ["left_big_toe", "left_foot_index"], nil), ("LSmallToe", ["left_small_toe"], nil),
    ("LHeel", ["left_heel"], nil),
    ("Neck", ["neck", "upper_neck"], ("left_shoulder", "right_shoulder")),
    ("Head", ["head", "head_top"], nil), ("Nose", ["nose"], nil),
    ("RShoulder", ["right_shoulder"], nil), ("RElbow", ["right_elbow"], nil), ("RWrist", ["right_wrist"], nil),
    ("LShoulder", ["left_shoulder"], nil), ("LElbow", ["left_elbow"], nil), ("LWrist", ["left_wrist"], nil),
  ]

  /// The markers of `skeleton` under `naming`.
  public init(skeleton: Skeleton, naming: MarkerNames) {
    switch naming {
    case .keypoints:
      names = skeleton.keypoints
      sources = skeleton.keypoints.indices.map { .joint($0) }
    case .pose2sim:
      names = []
      sources = []
      let index = Dictionary(skeleton.keypoints.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
      for entry in Self.pose2simOrder {
        if let j = entry.keypoints.lazy.compactMap({ index[$0] }).first {
          names.append(entry.name)
          sources.append(.joint(j))
        } else if let (a, b) = entry.midpointOf, let i = index[a], let j = index[b] {
          names.append(entry.name)
          sources.append(.midpoint(i, j))
        }
      }
    }
  }

  public var count: Int { names.count }

  /// Marker `m` of `track` at `frame`: its position and sample (for a midpoint, present only when both
  /// ends are; the worse reprojection error, the fewer views, filled if either end was filled).
  public func sample(_ m: Int, of track: MotionTrack, frame: Int) -> MotionSample {
    guard track.frames.contains(frame) else { return .missing }
    switch sources[m] {
    case .joint(let j):
      return track.samples[track.index(joint: j, frame: frame)]
    case .midpoint(let i, let j):
      let a = track.samples[track.index(joint: i, frame: frame)]
      let b = track.samples[track.index(joint: j, frame: frame)]
      guard a.isPresent, b.isPresent else { return .missing }
      let state: SampleState = a.state == .measured && b.state == .measured ? .measured : .filled
      return MotionSample(
        position: (a.position + b.position) / 2, reprojectionPx: max(a.reprojectionPx, b.reprojectionPx),
        views: Int(min(a.views, b.views)), state: state)
    }
  }
}
