import MatchSceneBallFlight
import MatchSceneCore

/// Puts each flight's spin on the event it starts from: the `hit` or `bounce` whose frame is the
/// flight's first observed frame or lies at most `reach` frames before it.
enum FlightSpinEvents {
  static let reach = 3
  /// The largest uncertainty (1σ, rad/s: 20 rev/s) of a spin reported after a bounce that its flight
  /// alone does not show (`sharingSidespin`); beyond it the value says nothing a player's stroke does
  /// not already vary by.
  static let candidateUncertainty = 20 * 2 * Double.pi

  /// The flights' spins put on the events, the sidespin shared along each chain of flights joined by
  /// bounces (`sharingSidespin`).
  static func attach(to events: [MatchEvent], flights: [BallFlight]) -> [MatchEvent] {
    let spinning = sharingSidespin(flights, events: events).filter { $0.spin != nil }
    guard !spinning.isEmpty else { return events }
    return events.map { event in
      guard event.type == .hit || event.type == .bounce else { return event }
      // The first spinning flight starting within `reach` frames after the event.
      var lo = 0, hi = spinning.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if spinning[mid].frames.lowerBound < event.frame { lo = mid + 1 } else { hi = mid }
      }
      guard lo < spinning.count, spinning[lo].frames.lowerBound - event.frame <= reach, let spin = spinning[lo].spin else { return event }
      var e = event
      e.spin = spin.report
      return e
    }
  }

  /// `flights` in order of their first frame, each flight after a spinning flight's bounce spinning
  /// with its `spinCandidate`, and the sidespins of each run of consecutive spinning flights that
  /// meet at bounces replaced by their shared value (`FlightSpin.sharedSidespin`: a
  /// bounce on a horizontal surface leaves the sidespin as it was). Two flights meet at a bounce when
  /// a `bounce` event, and no `hit` or `net` event, lies between `reach` frames before the first's last
  /// frame and the second's first frame.
  static func sharingSidespin(_ flights: [BallFlight], events: [MatchEvent]) -> [BallFlight] {
    var out = flights.sorted { $0.frames.lowerBound < $1.frames.lowerBound }
    let bounces = Set(events.filter { $0.type == .bounce }.map(\.frame))
    let others = Set(events.filter { $0.type == .hit || $0.type == .net }.map(\.frame))
    func meetAtBounce(_ i: Int) -> Bool {
      let from = out[i].frames.upperBound - reach, to = out[i + 1].frames.lowerBound
      guard from <= to else { return false }
      return (from...to).contains(where: bounces.contains) && !(from...to).contains(where: others.contains)
    }
    // A bounce does not stop a spinning ball (it changes the topspin and leaves the sidespin;
    // `FlightSpin.sharedSidespin`): after a spinning flight's bounce, the next flight reports the spin
    // its own samples give even when they are too few to pass the test alone, when they give it to
    // within `candidateUncertainty`.
    for i in out.indices.dropLast() where out[i].spin != nil && out[i + 1].spin == nil {
      guard let candidate = out[i + 1].spinCandidate, candidate.uncertainty <= candidateUncertainty, meetAtBounce(i) else { continue }
      out[i + 1].spin = candidate
    }
    var start = 0
    while start < out.count {
      var end = start
      while end + 1 < out.count, out[end].spin != nil, out[end + 1].spin != nil, meetAtBounce(end) { end += 1 }
      if end > start {
        let shared = FlightSpin.sharedSidespin(out[start...end].map { $0.spin! })
        for (k, spin) in shared.enumerated() { out[start + k].spin = spin }
      }
      start = end + 1
    }
    return out
  }
}
