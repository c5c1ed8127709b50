extension FrameAxis {
  /// `events` (real frames and times, as `events.json` holds them) moved onto the compact axis, for
  /// readers that analyse them with a model read on it (`MotionModel.axis`); events in a collapsed
  /// stretch (none when they came with the tracks) are left out. `events` unchanged for the identity.
  public func compact(_ events: [MatchEvent], fps: Double) -> [MatchEvent] {
    guard !isIdentity else { return events }
    return events.compactMap { e in
      guard let frame = compact(e.frame) else { return nil }
      var e = e
      e.time -= Double(e.frame - frame) / fps
      e.frame = frame
      return e
    }
  }
}
