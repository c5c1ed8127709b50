import MatchSceneCore

extension ReconstructionReport {
  /// The report of a motion that no camera triangulated (a device that gives 3D joints itself): frames,
  /// tracks, per-joint coverage of the people; no camera or reprojection figures.
  public init(motion: MotionModel) {
    let frames = motion.frames ?? 0...0
    let people = motion.personTracks
    let tracks = motion.tracks.map { t in
      let present = t.frames.filter { t.isPresent(frame: $0) }
      return TrackFigures(
        id: t.id, kind: t.kind.rawValue, firstFrame: present.first ?? frames.lowerBound,
        lastFrame: present.last ?? frames.lowerBound, frames: present.count)
    }
    let personFrames = people.reduce(0) { $0 + motion.tracks[$1].presentFrameCount }
    self.init(
      fps: motion.fps, firstFrame: frames.lowerBound, lastFrame: frames.upperBound,
      seconds: Double(frames.count) / motion.fps, cameras: [],
      joints: motion.skeleton.keypoints.indices.map { j in
        let count = people.reduce(0) { n, t in n + motion.tracks[t].series(joint: j).filter(\.isPresent).count }
        return JointFigures(
          joint: motion.skeleton.keypoints[j], coverage: personFrames > 0 ? Double(count) / Double(personFrames) : 0,
          reprojectionPx: ErrorStatistics([]), meanViews: 0)
      },
      tracks: tracks, ballCoverage: motion.ballTrack.map { Double(motion.tracks[$0].presentFrameCount) / Double(frames.count) } ?? 0,
      ballReprojectionPx: ErrorStatistics([]), ids: tracks.filter { $0.kind == "player" }.map(\.id), warnings: [])
  }
}
