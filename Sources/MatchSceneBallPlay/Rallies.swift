import MatchSceneCore

/// The frames of each rally: from its start (the serve, extended back over the toss) to its end.
public enum Rallies {
  /// How long the ball lies still on the palm before the toss, at least, seconds: the stillness that
  /// marks where play begins.
  public static let palmStill = 0.15

  /// Frame ranges from each rally start to its end (open rallies run to the last event), each extended
  /// back over the toss: the ball is in play "from the last moment at which it is stationary on the
  /// palm of the free hand" (ITTF Handbook 2.5.3). Going back from the serve over frames where the
  /// ball is seen (gaps up to `maxGap` bridged), the range stops where the ball has stayed within
  /// `stillRadius` of one place for `stillFrames` frames (held on the palm), or where it was not seen.
  public static func inPlay(
    _ events: [MatchEvent], ball: [Int: SIMD3<Double>], maxGap: Int, stillFrames: Int, stillRadius: Double
  ) -> [ClosedRange<Int>] {
    let firstSeen = ball.keys.min() ?? 0
    /// Whether the ball stayed within `stillRadius` of its place at `frame` over the `stillFrames` before it.
    func stillBefore(_ frame: Int) -> Bool {
      guard let p = ball[frame] else { return false }
      var seen = 0
      for f in (frame - stillFrames)..<frame {
        guard let q = ball[f] else { continue }
        if length(q - p) > stillRadius { return false }
        seen += 1
      }
      return seen >= stillFrames / 2
    }
    return ranges(events).map { range in
      var start = range.lowerBound
      var probe = start - 1
      while probe >= start - maxGap - 1, probe >= firstSeen {
        guard ball[probe] != nil else {
          probe -= 1
          continue
        }
        start = probe
        if stillBefore(probe) { break }
        probe = start - 1
      }
      return start...range.upperBound
    }
  }

  /// Frame ranges from each rally start to its end; a rally still open at the end runs to `openUntil`
  /// (by default the last event's frame).
  public static func ranges(_ events: [MatchEvent], openUntil: Int? = nil) -> [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    var start: Int?
    for e in events.sorted(by: { $0.frame < $1.frame }) {
      if e.type == .rallyStart { start = e.frame }
      if e.type == .rallyEnd, let s = start {
        ranges.append(s...max(s, e.frame))
        start = nil
      }
    }
    if let s = start, let last = openUntil ?? events.map(\.frame).max() { ranges.append(s...max(s, last)) }
    return ranges
  }
}
