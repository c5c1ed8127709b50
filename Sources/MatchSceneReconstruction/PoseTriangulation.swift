import MatchSceneCore
import MatchSceneGeometry

/// A person's 3D pose in one frame.
struct Pose3D: Sendable {
  /// Per skeleton keypoint: the triangulated point, or nil.
  var joints: [TriangulatedPoint?]
  /// Cameras that contributed (indices into the camera list).
  var cameras: [Int]
  /// Per joint and camera, joint-major (`viewErrors[joint * cameraCount + camera]`): the pixel
  /// reprojection error, and whether the view was used (nil where the camera had no observation or the
  /// joint failed). One flat array: a 10-minute match holds 100,000 poses until they are linked.
  var viewErrors: [(error: Double, used: Bool)?] = []
  /// Cameras per joint in `viewErrors`.
  var cameraCount = 0

  /// Bones whose lengths make a body's signature: both upper arms, forearms, thighs, shanks, and the
  /// shoulder and hip widths (those the skeleton has).
  static func signatureLimbs(_ skeleton: Skeleton) -> [(Int, Int)] {
    let names = [
      ("left_shoulder", "left_elbow"), ("right_shoulder", "right_elbow"), ("left_elbow", "left_wrist"),
      ("right_elbow", "right_wrist"), ("left_hip", "left_knee"), ("right_hip", "right_knee"),
      ("left_knee", "left_ankle"), ("right_knee", "right_ankle"), ("left_shoulder", "right_shoulder"),
      ("left_hip", "right_hip"), ("left_shoulder", "left_hip"), ("right_shoulder", "right_hip"),
    ]
    return names.compactMap { a, b in
      guard let i = skeleton.index(of: a), let j = skeleton.index(of: b) else { return nil }
      return (i, j)
    }
  }

  /// This pose's length of each limb (nil where a joint is missing).
  func limbLengths(_ limbs: [(Int, Int)]) -> [Double?] {
    limbs.map { i, j in
      guard let a = joints[i]?.position, let b = joints[j]?.position else { return nil }
      return length(a - b)
    }
  }

  /// Mean of the torso joints (shoulders and hips) when present, else of all joints.
  func centre(torso: [Int]) -> SIMD3<Double>? {
    let torsoPoints = torso.compactMap { $0 < joints.count ? joints[$0]?.position : nil }
    let points = torsoPoints.count >= 2 ? torsoPoints : joints.compactMap { $0?.position }
    guard !points.isEmpty else { return nil }
    return points.reduce(.zero, +) / Double(points.count)
  }
}

/// Triangulates the people of one frame, repairing left/right swaps per view first.
enum PoseTriangulation {
  /// - Parameters:
  ///   - clusters: associated detections.
  ///   - people: per camera, that camera's detections this frame.
  static func triangulate(
    clusters: [PersonCluster], people: [[PersonDetection2D]], cameras: [Camera], skeleton: Skeleton,
    triangulator: Triangulator
  ) throws -> [Pose3D] {
    let m = cameras.count, k = skeleton.count
    guard !clusters.isEmpty else { return [] }
    // One batch for every joint of every person in the frame.
    func observations(_ views: [[PersonDetection2D?]]) -> [Keypoint2D] {
      var obs = [Keypoint2D](repeating: .missing, count: views.count * k * m)
      for (p, perCamera) in views.enumerated() {
        for c in 0..<m {
          guard let detection = perCamera[c] else { continue }
          for j in 0..<min(k, detection.keypoints.count) { obs[(p * k + j) * m + c] = detection.keypoints[j] }
        }
      }
      return obs
    }
    var views: [[PersonDetection2D?]] = clusters.map { cluster in
      (0..<m).map { c in cluster.members[c].map { people[c][$0] } }
    }
    let firstObservations = observations(views)
    var batch = try triangulator.triangulate(firstObservations)
    // Left/right swap repair (in the kernel): a view whose keypoints fit the 3D pose better mirrored is
    // mirrored, for people seen by at least three cameras (with two, the estimate follows either view).
    if !skeleton.mirrorPairs.isEmpty {
      let mirrored = try triangulator.mirroredViews(
        firstObservations, batch: batch, keypointCount: k, pairs: skeleton.mirrorPairs)
      var repaired = false
      for p in 0..<views.count where views[p].compactMap({ $0 }).count >= 3 {
        for c in 0..<m where mirrored[p * m + c] {
          guard var detection = views[p][c] else { continue }
          for (l, r) in skeleton.mirrorPairs where l < detection.keypoints.count && r < detection.keypoints.count {
            detection.keypoints.swapAt(l, r)
          }
          views[p][c] = detection
          repaired = true
        }
      }
      if repaired { batch = try triangulator.triangulate(observations(views)) }
    }
    return (0..<views.count).map { p in
      Pose3D(
        joints: (0..<k).map { batch.point(p * k + $0) },
        cameras: (0..<m).filter { views[p][$0] != nil },
        viewErrors: (0..<(k * m)).map { i in
          let (j, c) = i.quotientAndRemainder(dividingBy: m)
          return batch.reprojectionPx(point: p * k + j, camera: c).map { ($0, batch.isUsed(point: p * k + j, camera: c)) }
        },
        cameraCount: m)
    }
  }
}
