import MatchSceneCore

/// Settings of `FlightSegmentation`.
public struct FlightSegmentationOptions: Sendable {
  /// A new observation that misses the current flight's prediction by more than
  /// max(`breakDistance`, `breakFactor` · rms) is a candidate contact, metres.
  public var breakDistance: Double = 0.035
  public var breakFactor: Double = 4
  /// A flight needs at least this many observations.
  public var minObservations = 4
  /// Observation gaps longer than this (seconds) end a flight: the ball was lost or out of play.
  public var maxGap: Double = 0.25
  public init() {}
}

/// Splits a ball track into free flights between contacts and fits each with the drag model.
///
/// Greedy, one pass: a flight starts from a few observations, is refitted as observations are added,
/// and ends when the next two observations both leave its predicted path (a single stray point is
/// taken as an outlier and skipped). This is sequential model fitting with a prediction gate, the
/// approach of ball-tracking systems such as Hawk-Eye-style trackers (e.g. Owens, Harris & Stennett,
/// "Hawk-eye tennis system", IEE VIE 2003).
public struct FlightSegmentation: Sendable {
  public var model: BallModel
  public var options: FlightSegmentationOptions
  public init(model: BallModel, options: FlightSegmentationOptions = .init()) {
    self.model = model
    self.options = options
  }

  /// Flights in time order. `observations` are (frame, position), any order, one per frame.
  public func flights(_ observations: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> [BallFlight] {
    let obs = observations.sorted { $0.frame < $1.frame }
    var flights: [BallFlight] = []
    var start = 0
    let maxGapFrames = Int((options.maxGap * fps).rounded())
    while start + options.minObservations <= obs.count {
      // Seed: the first minObservations points, which must be gap-free enough.
      let seedEnd = start + options.minObservations - 1
      if obs[seedEnd].frame - obs[start].frame > options.minObservations - 1 + maxGapFrames {
        start += 1
        continue
      }
      var members = Array(start...seedEnd)
      guard var flight = fit(members, obs, fps: fps), flight.rms < options.breakDistance else {
        start += 1
        continue
      }
      var next = seedEnd + 1
      var misses = 0
      while next < obs.count {
        let last = obs[members.last!].frame
        if obs[next].frame - last > maxGapFrames { break }
        let predicted = flight.position(at: Double(obs[next].frame) / fps)
        let gate = max(options.breakDistance, options.breakFactor * flight.rms)
        if length(predicted - obs[next].position) > gate {
          // Two misses in a row end the flight; one is an outlier.
          if next + 1 < obs.count {
            let predicted2 = flight.position(at: Double(obs[next + 1].frame) / fps)
            if length(predicted2 - obs[next + 1].position) <= gate, obs[next + 1].frame - last <= maxGapFrames {
              misses += 1
              next += 1
              continue
            }
          }
          break
        }
        members.append(next)
        next += 1
        // Refit as the flight grows (every point while short, then every third).
        if members.count < 12 || members.count % 3 == 0, let refit = fit(members, obs, fps: fps) { flight = refit }
      }
      if let final = fit(members, obs, fps: fps) { flight = final }
      flights.append(flight)
      start = members.last! + 1
      _ = misses
    }
    return flights
  }

  func fit(_ members: [Int], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> BallFlight? {
    let samples = members.map { (time: Double(obs[$0].frame) / fps, position: obs[$0].position) }
    return FlightFit.fit(samples, model: model, frames: obs[members.first!].frame...obs[members.last!].frame)
  }
}
