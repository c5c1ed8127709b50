import MatchSceneBallFlight
import MatchSceneCore

extension EventDetector {
  /// Restitution of each surface as the match's own bounces show it: the median,
  /// over the bounces found between two flights, of the rebound's vertical speed over the incoming
  /// one (`samples`, the ratio at each such bounce). Nil for a surface with fewer than `minimumCount`
  /// samples — too few to trust a median.
  static func restitution(_ samples: [BounceSurface: [Double]], minimumCount: Int = 3) -> [BounceSurface: Double] {
    var out: [BounceSurface: Double] = [:]
    for (surface, values) in samples where values.count >= minimumCount {
      let sorted = values.sorted()
      let m = sorted.count / 2
      out[surface] = sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }
    return out
  }

  /// Observations after a flight's end, in as many frames, that may be the ball at the contact and
  /// rising from it before it is lost: the contact's frame and three more — a rebound seen in fewer
  /// than four frames forms no flight of its own (`FlightSegmentationOptions.minObservations`), so no
  /// pair of flights meets at that bounce.
  static let framesAfterEnd = 4

  /// Bounces of a ball lost right after touching a surface: a flight that no flight follows (the ball
  /// is not seen for 0.3 s after it, but in the `framesAfterEnd` frames right after its end) and whose path
  /// comes down onto the table top or the floor within a frame of the ball's last observation (or
  /// up to two frames before its end, `crossing`). The ball cannot stop there at once: it
  /// rebounds at the incoming vertical speed times the surface's restitution `e` (measured on the
  /// match's own bounces, `restitution(_:)`; no event on a surface without that measurement), and the
  /// contact is a bounce when that rebound would lift it at least `minimumHop` (e·v ≥ √(2 g h)) — the
  /// rule the bounces with a flight after them pass — with the incoming speed taken two standard errors
  /// below the fit's (`endSpeedError`), so that a noisy flight's steep end is not a bounce; and the
  /// ball must be seen on the surface at or after the fitted contact (within 2 rms), or the contact taken two
  /// standard errors late (`endHeightError` over the descent speed) still fall within that frame, so
  /// that a slow, noisily seen ball lost in the air is not a bounce.
  /// - Parameters:
  ///   - flights: time-ordered fitted flights; `flies` tells which carry the ball (see `detect`).
  ///   - ball: the observed ball positions by frame.
  ///   - restitution: per surface, from `restitution(_:)`.
  func lostAfterContact(
    flights: [BallFlight], flies: (BallFlight) -> Bool, ball: [Int: SIMD3<Double>], restitution: [BounceSurface: Double], fps: Double
  ) -> [MatchEvent] {
    guard !restitution.isEmpty else { return [] }
    let unseen = Int(0.3 * fps) + 1
    var events: [MatchEvent] = []
    for (i, a) in flights.enumerated() {
      let end = a.frames.upperBound
      if i + 1 < flights.count, flights[i + 1].frames.lowerBound - end <= unseen { continue }
      // Observations in the few frames after the flight may follow it: the ball at or just after the
      // contact, which no ballistic path through the flight's own observations explains.
      let lastSeen = (end + 1...end + Self.framesAfterEnd).last { ball[$0] != nil } ?? end
      guard flies(a), !(lastSeen + 1...end + unseen).contains(where: { ball[$0] != nil }) else { continue }
      let limit = Double(lastSeen + 1) / fps
      let contact: (time: Double, position: SIMD3<Double>, surface: BounceSurface)
      if let (t, p) = crossing(a, height: table.surfaceHeight + table.ballRadius, before: limit, after: Double(end - 2) / fps, fps: fps),
        onTableTop(p)
      {
        contact = (t, p, .table)
      } else if let (t, p) = crossing(a, height: table.ballRadius, before: limit, after: Double(end - 2) / fps, fps: fps) {
        contact = (t, p, .floor)
      } else {
        continue
      }
      guard let e = restitution[contact.surface] else { continue }
      let v = a.velocity(at: contact.time)
      // Evidence that the ball reached the surface before it was lost: the fitted contact precedes the
      // last sighting, which lies on the surface (within two of the fit's RMS distances) — the ball
      // seen at the contact —, or the contact's time as the fit knows it — the path's
      // height there is uncertain by `endHeightError`, which moves the crossing by that over the
      // descent speed — falls within the frame after the last sighting even two standard errors late.
      // Else the ball may as well have been lost still in the air (a slow hop seen with centimetres
      // of scatter, its fit dipping onto the floor frames before the ball would).
      let seenOnSurface = contact.time <= Double(lastSeen) / fps
        && ball[lastSeen].map { $0.z - contact.position.z <= 2 * a.rms } ?? false
      let lateBy = 2 * Self.endHeightError(a, at: contact.time, ball: ball, fps: fps) / max(-v.z, .ulpOfOne)
      guard seenOnSurface || contact.time + lateBy <= limit else { continue }
      // The incoming speed as the flight's fit knows it: two standard errors below the estimate.
      let slow = -v.z - 2 * Self.endSpeedError(a, ball: ball, fps: fps)
      guard v.z < 0, e * slow >= (2 * 9.81 * options.minimumHop).squareRoot() else { continue }
      let onTable = contact.surface == .table
      events.append(
        MatchEvent(type: .bounce, frame: Int((contact.time * fps).rounded()), time: contact.time, position: contact.position,
                   speed: length(v), surface: contact.surface,
                   side: onTable ? TableSide(x: contact.position.x) : nil))
    }
    return events
  }

  /// Where flight `a`'s path last comes down to `height` between `earliest` and `limit` (match time,
  /// s): its last observations may lie after the contact already (the fit, through them, dips below
  /// the surface before its end). Searched back from `limit` a frame at a time, then bisected; nil
  /// when the path is above `height` at `limit` or below it all the way back to `earliest`.
  private func crossing(_ a: BallFlight, height: Double, before limit: Double, after earliest: Double, fps: Double)
    -> (Double, SIMD3<Double>)?
  {
    var hi = limit
    guard a.position(at: hi).z <= height else { return nil }
    var lo = hi - 1 / fps
    while a.position(at: lo).z <= height {
      guard lo > earliest else { return nil }
      hi = lo
      lo -= 1 / fps
    }
    for _ in 0..<40 {
      let mid = (lo + hi) / 2
      if a.position(at: mid).z > height { lo = mid } else { hi = mid }
    }
    return (hi, a.position(at: hi))
  }

  /// The standard error of flight `a`'s fitted height at match time `t`, metres: with gravity known,
  /// the height less gravity's share is a straight line in time, whose value at `t` has variance
  /// σ² (1/n + (t − t̄)² / Σ(tᵢ − t̄)²) over the n observation times tᵢ (the prediction variance of a
  /// least-squares line; Montgomery, Peck & Vining, Introduction to Linear Regression Analysis, §2.4);
  /// σ is the fit's RMS distance `a.rms`, as in `endSpeedError`.
  static func endHeightError(_ a: BallFlight, at t: Double, ball: [Int: SIMD3<Double>], fps: Double) -> Double {
    guard let (n, mean, spread) = observationTimes(a, ball: ball, fps: fps) else { return .infinity }
    return a.rms * (1 / n + (t - mean) * (t - mean) / spread).squareRoot()
  }

  /// The standard error of flight `a`'s vertical speed, m/s: with gravity known, the speed is the slope
  /// of a straight-line fit, whose variance is σ² / Σ(t − t̄)² over the observation times (any t, a
  /// line's slope is one number); σ is taken as the fit's RMS distance `a.rms` (all three axes: an
  /// upper bound on the vertical one's).
  static func endSpeedError(_ a: BallFlight, ball: [Int: SIMD3<Double>], fps: Double) -> Double {
    guard let (_, _, spread) = observationTimes(a, ball: ball, fps: fps) else { return .infinity }
    return a.rms / spread.squareRoot()
  }

  /// The times (seconds) at which flight `a`'s ball was observed: their count n, mean t̄ and spread
  /// Σ(tᵢ − t̄)², the sums of the straight-line fit's variances above; nil for fewer than three
  /// observations or no spread.
  static func observationTimes(
    _ a: BallFlight, ball: [Int: SIMD3<Double>], fps: Double
  ) -> (n: Double, mean: Double, spread: Double)? {
    let times = a.frames.filter { ball[$0] != nil }.map { Double($0) / fps }
    guard times.count >= 3 else { return nil }
    let n = Double(times.count)
    let mean = times.reduce(0, +) / n
    let spread = times.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return spread > 0 ? (n, mean, spread) : nil
  }
}
