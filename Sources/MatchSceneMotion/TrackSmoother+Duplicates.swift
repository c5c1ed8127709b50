import MatchSceneCore

extension TrackSmoother {
  /// Removes gap filling that would draw a person twice: a frame where a person track was filled
  /// whole (none of its joints measured there) while another person track was measured at the same
  /// place — its centre (mean of its joints) within `distance` — is the person seen under the other
  /// track (an identity that flipped between two tracks and back), and that frame of the filled track
  /// becomes missing. Measured samples are never touched.
  /// - Parameters:
  ///   - motion: smoothed motion (`smooth(_:)`), changed in place.
  ///   - distance: largest distance between the two centres, metres (two people's centres stand
  ///     farther apart than this; one person's partial and whole centres closer).
  /// - Returns: the number of track frames emptied.
  @discardableResult
  public static func removeDuplicateFills(_ motion: inout MotionModel, distance: Double = 0.4) -> Int {
    let people = motion.personTracks
    guard people.count >= 2, let frames = motion.frames else { return 0 }
    /// The centre of `track` at `frame` from its samples passing `include`, or nil.
    func centre(_ track: MotionTrack, _ frame: Int, _ include: (MotionSample) -> Bool) -> SIMD3<Double>? {
      var sum = SIMD3<Double>.zero, n = 0.0
      for j in 0..<track.jointCount {
        let s = track[joint: j, frame: frame]
        if s.isPresent, include(s) {
          sum += s.position
          n += 1
        }
      }
      return n > 0 ? sum / n : nil
    }
    let measured: (MotionSample) -> Bool = { $0.views > 0 }
    var emptied = 0
    for frame in frames {
      // Measured centres of every person track this frame.
      let seen = people.map { centre(motion.tracks[$0], frame, measured) }
      for (k, t) in people.enumerated() where seen[k] == nil {
        guard let filled = centre(motion.tracks[t], frame, { _ in true }) else { continue }
        let duplicate = people.indices.contains { other in
          other != k && seen[other].map { length($0 - filled) <= distance } == true
        }
        guard duplicate else { continue }
        for j in 0..<motion.tracks[t].jointCount { motion.tracks[t][joint: j, frame: frame] = .missing }
        emptied += 1
      }
    }
    return emptied
  }
}
