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
    /// Whether the ball was still at `frame`: its median place over `frame` and the two frames before,
    /// over the `stillFrames` before those, and over the `stillFrames` before those again (each of the
    /// two seen in at least half of their frames) lie within `stillRadius` of each other in turn.
    /// Medians, per axis, and not every position: a ball held on the palm but triangulated with a
    /// miscalibrated camera in or out of the view set jumps between two places 4 cm apart
    /// (`--faults hard`), and its noise reaches the radius; its median place stays put, while a tossed
    /// ball's moves 4 cm in its first frame. Three windows, not two: around a toss's apex two windows
    /// either side have the same median height.
    func stillBefore(_ frame: Int) -> Bool {
      guard ball[frame] != nil else { return false }
      let recent = (frame - 2...frame).compactMap { ball[$0] }
      let before = (frame - 2 - stillFrames..<frame - 2).compactMap { ball[$0] }
      let earlier = (frame - 2 - 2 * stillFrames..<frame - 2 - stillFrames).compactMap { ball[$0] }
      guard before.count >= stillFrames / 2, earlier.count >= stillFrames / 2, let now = Rallies.median(recent),
        let then = Rallies.median(before), let first = Rallies.median(earlier)
      else { return false }
      return length(now - then) <= stillRadius && length(then - first) <= stillRadius
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

extension Rallies {
  /// The per-axis median of `points` (nil when empty).
  static func median(_ points: [SIMD3<Double>]) -> SIMD3<Double>? {
    guard !points.isEmpty else { return nil }
    return SIMD3(MatchSceneCore.median(points.map(\.x)), MatchSceneCore.median(points.map(\.y)), MatchSceneCore.median(points.map(\.z)))
  }
}
