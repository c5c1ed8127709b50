import MatchSceneBallFlight
import MatchSceneBallPlay
import MatchSceneCore

/// Where a fitted ball flight should not replace the observations: at its ends, past a contact.
///
/// A flight's path is least constrained at its ends, and the observations there may already lie past
/// a contact (a bounce or a stroke 1–2 frames away bends the ball off the path) and pull the whole fit
/// off. Measured on the simulator's matches with default faults, the frames within three of a true
/// contact were 28 % of the ball's frames but 62 % of its error tail above p95, where the fitted path
/// missed the ball by 10–37 mm and the triangulated observation by 2–15 mm.
///
/// So the ends are trimmed: while the first or the last observation of the flight lies farther from
/// the fitted path than `factor` times the flight's robust noise scale (the median distance of its
/// observations from the path, with a `floor`), it is taken out and the flight is fitted again — a
/// trimmed least-squares fit (Rousseeuw & Leroy, *Robust Regression and Outlier Detection*, 1987,
/// ch. 1) restricted to the ends, where a contact can hide. The observations taken out stay as
/// observed. An observation inside a flight that the fit misses is more likely a bad triangulation
/// (a false candidate), and keeps the fitted position.
enum BallFlightEnds {
  /// At most this many observations are trimmed from each end.
  static let maxTrimmed = 3
  /// An end observation farther from the path than `factor` × the median distance is trimmed.
  static let factor = 2.5
  /// The gate never falls below this, metres (a flight fitted to few, very clean observations).
  static let floor = 0.004

  /// The flight refitted without its unexplained end observations, and the frames trimmed.
  static func trimmed(_ flight: BallFlight, observed: MotionTrack, fps: Double, minObservations: Int = 4)
    -> (flight: BallFlight, trimmed: Set<Int>)
  {
    var frames = flight.frames.filter { observed.frames.contains($0) && observed[joint: 0, frame: $0].isPresent }
    var current = flight
    var trimmed = Set<Int>(), fromStart = 0, fromEnd = 0
    func miss(_ f: BallFlight, _ frame: Int) -> Double {
      length(f.position(at: Double(frame) / fps) - observed[joint: 0, frame: frame].position)
    }
    while frames.count > minObservations {
      let distances = frames.map { miss(current, $0) }.sorted()
      let gate = max(factor * distances[distances.count / 2], floor)
      let first = miss(current, frames.first!), last = miss(current, frames.last!)
      let trimFirst = fromStart < maxTrimmed && first > gate && (first >= last || fromEnd >= maxTrimmed || last <= gate)
      let trimLast = !trimFirst && fromEnd < maxTrimmed && last > gate
      guard trimFirst || trimLast else { break }
      let frame = trimFirst ? frames.removeFirst() : frames.removeLast()
      if trimFirst { fromStart += 1 } else { fromEnd += 1 }
      trimmed.insert(frame)
      let samples = frames.map { (time: Double($0) / fps, position: observed[joint: 0, frame: $0].position) }
      guard let refit = FlightFit.fit(samples, model: flight.model, frames: frames.first!...frames.last!) else { break }
      current = refit
    }
    // The refit covers the original span (missed frames at the ends are still the flight's).
    current.frames = flight.frames
    return (current, trimmed)
  }
}
