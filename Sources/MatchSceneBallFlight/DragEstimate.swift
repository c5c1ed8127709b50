import MatchSceneCore

/// The ball's drag constant k_D of one match, estimated from its own flights with the sport's value as
/// the prior.
///
/// Each long, fast flight is fitted with its drag (and, when the model has a Magnus constant, its spin)
/// free (`FlightFit`), which gives k_i with its standard uncertainty σ_i. The estimate is the
/// precision-weighted mean of the prior (k_0, σ_0) and the flights' values — the posterior mean of a
/// Gaussian prior with Gaussian measurements (Gelman et al., Bayesian Data Analysis, 3rd ed., §2.5) —
/// after setting aside flights more than `rejection` standard deviations from a first, median-anchored
/// estimate (a flight with an unseen contact or a bad segment).
public struct DragEstimate: Sendable, Equatable {
  /// The match's drag constant, 1/m.
  public var drag: Double
  /// Its standard uncertainty (1σ), 1/m.
  public var uncertainty: Double
  /// The prior: the sport's drag constant and its uncertainty, 1/m.
  public var prior: Double
  public var priorUncertainty: Double
  /// The flights the estimate used.
  public var flights: Int

  public init(drag: Double, uncertainty: Double, prior: Double, priorUncertainty: Double, flights: Int) {
    self.drag = drag
    self.uncertainty = uncertainty
    self.prior = prior
    self.priorUncertainty = priorUncertainty
    self.flights = flights
  }
}

/// Settings of `DragEstimate.estimate`.
public struct DragEstimateOptions: Sendable, Equatable {
  /// The prior's relative standard uncertainty (a sport file's drag coefficient is a textbook value;
  /// balls, air density and temperature move it by some 10–20 %).
  public var priorRelativeUncertainty = 0.25
  /// Flights shorter than this (seconds) or slower than `minimumSpeed` (m/s) say little about drag.
  public var minimumDuration = 0.25
  public var minimumSpeed = 4.0
  /// At most this many flights are fitted (evenly spread over the match): a few hundred fix k_D far
  /// better than the 1 % its effect on a flight can show.
  public var maximumFlights = 160
  /// Flights further than this many standard deviations from the first estimate are set aside.
  public var rejection = 4.0
  public init() {}
}

extension DragEstimate {
  /// The drag estimated from `flights` (fitted with `model`'s drag) and the observations they were
  /// fitted to (`observations` sorted by frame). An observation counts for its flight when the
  /// flight's path passes within `gate(flight)` metres of it.
  public static func estimate(
    flights: [BallFlight], observations: [(frame: Int, position: SIMD3<Double>)], fps: Double, model: BallModel,
    options: DragEstimateOptions = .init(), gate: @Sendable (BallFlight) -> Double
  ) -> DragEstimate {
    let prior = model.drag
    let priorSigma = max(1e-6, options.priorRelativeUncertainty * prior)
    var candidates = flights.filter {
      Double($0.frames.count - 1) / fps >= options.minimumDuration && length($0.velocity) >= options.minimumSpeed
    }
    if candidates.count > options.maximumFlights {
      let stride = Double(candidates.count) / Double(options.maximumFlights)
      candidates = (0..<options.maximumFlights).map { candidates[Int(Double($0) * stride)] }
    }
    let free = FlightFitFreedom(drag: true, spin: model.magnus > 0)
    let measured: [(drag: Double, sigma: Double)?] = try! parallelMap(candidates) { flight in
      let samples = Self.samples(of: flight, observations, fps: fps, gate: gate(flight))
      guard samples.count >= 12,
        let fitted = FlightFit.fit(samples, model: flight.model, frames: flight.frames, free: free, start: flight),
        let sigma = fitted.dragUncertainty, sigma > 0, sigma.isFinite, fitted.model.drag.isFinite
      else { return nil }
      return (fitted.model.drag, sigma)
    }
    var values = measured.compactMap { $0 }
    func combine(_ values: [(drag: Double, sigma: Double)]) -> (Double, Double) {
      var weight = 1 / (priorSigma * priorSigma), sum = prior * weight
      for v in values {
        let w = 1 / (v.sigma * v.sigma)
        weight += w
        sum += v.drag * w
      }
      return (sum / weight, (1 / weight).squareRoot())
    }
    if !values.isEmpty {
      // Anchor on the median (robust to a few bad flights), then keep the flights that agree with it.
      let median = values.map(\.drag).sorted()[values.count / 2]
      let spread = values.map { abs($0.drag - median) }.sorted()[values.count / 2] * 1.4826
      values = values.filter { abs($0.drag - median) <= options.rejection * max($0.sigma, spread) }
    }
    let (drag, sigma) = combine(values)
    return DragEstimate(drag: drag, uncertainty: sigma, prior: prior, priorUncertainty: priorSigma, flights: values.count)
  }

  /// The observations within `flight.frames` its path passes within `gate` of, as timed samples.
  public static func samples(
    of flight: BallFlight, _ observations: [(frame: Int, position: SIMD3<Double>)], fps: Double, gate: Double
  ) -> [(time: Double, position: SIMD3<Double>)] {
    var lo = 0, hi = observations.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if observations[mid].frame < flight.frames.lowerBound { lo = mid + 1 } else { hi = mid }
    }
    var out: [(time: Double, position: SIMD3<Double>)] = []
    var i = lo
    while i < observations.count, observations[i].frame <= flight.frames.upperBound {
      let t = Double(observations[i].frame) / fps
      if length(flight.position(at: t) - observations[i].position) <= gate { out.append((t, observations[i].position)) }
      i += 1
    }
    return out
  }
}
