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
