import MatchSceneBallFlight
import MatchSceneCore

/// Puts each flight's spin on the event it starts from: the `hit` or `bounce` whose frame is the
/// flight's first observed frame or lies at most `reach` frames before it.
enum FlightSpinEvents {
  static let reach = 3

  static func attach(to events: [MatchEvent], flights: [BallFlight]) -> [MatchEvent] {
    let spinning = flights.filter { $0.spin != nil }.sorted { $0.frames.lowerBound < $1.frames.lowerBound }
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
}
