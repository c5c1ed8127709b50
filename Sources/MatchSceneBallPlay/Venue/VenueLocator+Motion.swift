import MatchSceneCore

extension VenueLocator {
  /// The ball's positions by frame in `motion` (measured and filled samples of its tracks of kind
  /// `ball`; the first ball track's when there are several).
  public static func ball(in motion: MotionModel) -> [Int: SIMD3<Double>] {
    var ball: [Int: SIMD3<Double>] = [:]
    for track in motion.tracks where track.kind == .ball {
      for frame in track.frames where ball[frame] == nil {
        if let p = track.position(joint: 0, frame: frame) { ball[frame] = p }
      }
    }
    return ball
  }
}

extension VenueLocator {
  /// Each person's position by frame in `motion`: the mean of the joints present in that frame, for
  /// every track that is not the ball (before the analysis names the players, they may be `person`s).
  public static func people(in motion: MotionModel) -> [[Int: SIMD3<Double>]] {
    motion.personTracks.map { t in
      let track = motion.tracks[t]
      var positions: [Int: SIMD3<Double>] = [:]
      for frame in track.frames {
        let joints = (0..<track.jointCount).compactMap { track.position(joint: $0, frame: frame) }
        if !joints.isEmpty { positions[frame] = joints.reduce(SIMD3<Double>.zero, +) / Double(joints.count) }
      }
      return positions
    }
  }
}
