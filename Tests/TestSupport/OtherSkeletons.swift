import MatchSceneCore

/// Skeletons other than COCO-17 for tests of outputs that must keep theirs: BODY_25B (COCO-17's keypoints
/// then eight more) and a custom skeleton whose keypoint names say nothing (`m0`…`m16`), its roles given
/// explicitly, so that it is read right only when the output records it.
public enum OtherSkeletons {
  /// COCO-17's keypoints renamed `m0`…`m16`, with COCO-17's bones and mirror pairs and every role given.
  public static let custom: Skeleton = {
    let coco = Skeleton.coco17
    let name = { (i: Int) in "m\(i)" }
    var roles: [JointRole: String] = [:]
    for (role, i) in coco.roles { roles[role] = name(i) }
    return Skeleton(
      name: "lab-markers", keypoints: coco.keypoints.indices.map(name),
      bones: coco.bones.map { (name($0.0), name($0.1)) }, mirrorPairs: coco.mirrorPairs.map { (name($0.0), name($0.1)) },
      roles: roles)
  }()
}

extension MotionModel {
  /// The model in `skeleton`, each of its keypoints taking the samples of the keypoint of the same
  /// position in `keypointOf` (a keypoint name of the current skeleton, by the new one's index); keypoints
  /// without one are missing.
  public func reskeletoned(to skeleton: Skeleton, keypointOf: (Int) -> String?) -> MotionModel {
    var out = MotionModel(fps: fps, skeleton: skeleton, frames: frames)
    for track in tracks {
      guard track.kind != .ball else { out.tracks.append(track); continue }
      var moved = MotionTrack(id: track.id, kind: track.kind, jointCount: skeleton.count, frames: track.frames)
      for j in 0..<skeleton.count {
        guard let name = keypointOf(j), let source = self.skeleton.index(of: name) else { continue }
        for frame in track.frames { moved[joint: j, frame: frame] = track[joint: source, frame: frame] }
      }
      out.tracks.append(moved)
    }
    return out
  }

  /// A COCO-17 model in BODY_25B (its first 17 keypoints are COCO-17's; the other eight missing).
  public var inBody25B: MotionModel {
    reskeletoned(to: .body25b) { $0 < Skeleton.coco17.count ? Skeleton.coco17.keypoints[$0] : nil }
  }

  /// A COCO-17 model in `OtherSkeletons.custom`.
  public var inCustomSkeleton: MotionModel {
    reskeletoned(to: OtherSkeletons.custom) { Skeleton.coco17.keypoints[$0] }
  }
}
