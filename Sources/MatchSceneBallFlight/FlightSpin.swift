import MatchSceneCore

/// The spin of one flight: its angular velocity and the components players name, in the venue frame
/// (z up).
///
/// Topspin turns about the horizontal axis ẑ × d (d: the flight's horizontal direction at its launch,
/// where the stroke or bounce gave the ball its spin), so that the
/// top of the ball moves forward and the Magnus force k_M ω × v pushes the ball down; backspin is
/// negative topspin and lifts it. Sidespin turns about ẑ; positive is counter-clockwise seen from
/// above and bends the flight to the left of its direction. The component along d (a "corkscrew"
/// spin) exerts no force on a ball moving along d and is not observable from the flight.
public struct FlightSpin: Sendable, Equatable {
  /// Topspin, rad/s (negative: backspin).
  public var topspin: Double
  /// Sidespin, rad/s (positive: counter-clockwise seen from above).
  public var sidespin: Double
  /// ω, rad/s, venue frame.
  public var angularVelocity: SIMD3<Double>
  /// Standard uncertainty (1σ) of each component, rad/s: the larger of the two.
  public var uncertainty: Double

  public init(topspin: Double, sidespin: Double, angularVelocity: SIMD3<Double>, uncertainty: Double) {
    self.topspin = topspin
    self.sidespin = sidespin
    self.angularVelocity = angularVelocity
    self.uncertainty = uncertainty
  }

  /// The fastest spin a fit may report, rad/s (200 rev/s: above the 150 rev/s of the heaviest loops
  /// and serves measured). A fit asking for more is bending its path through a contact it spans (the
  /// V of a bounce between two frames), not following a spinning ball, and is not taken.
  public static let plausibleLimit = 200 * 2 * Double.pi

  /// Whether the spin is within `plausibleLimit`.
  public var isPlausible: Bool { length(angularVelocity) <= Self.plausibleLimit }

  /// A flight slower than this horizontally (m/s) has no spin fitted: its direction, hence the
  /// topspin axis, is ill-defined, and the Magnus force too small to measure.
  public static let minimumHorizontalSpeed = 2.0

  /// The topspin and sidespin axes of a flight with velocity `velocity` (venue frame, z up): ẑ × d and
  /// ẑ; nil when the horizontal speed is below `minimumHorizontalSpeed`.
  public static func basis(velocity: SIMD3<Double>) -> (top: SIMD3<Double>, side: SIMD3<Double>)? {
    let horizontal = SIMD3(velocity.x, velocity.y, 0)
    let speed = length(horizontal)
    guard speed >= minimumHorizontalSpeed else { return nil }
    let d = horizontal / speed
    return (SIMD3(-d.y, d.x, 0), SIMD3(0, 0, 1))
  }

  /// The velocity at a flight's launch — its earliest sample — from the state (`position`, `velocity`)
  /// at time 0 and the samples' `times` relative to it, under `model`. The spin's axes are taken
  /// there (`basis`): a stroke or bounce gives the ball its spin about the direction it leaves in, and
  /// a flight that drag slows below `minimumHorizontalSpeed` by its middle still shows its spin.
  public static func launchVelocity(
    _ position: SIMD3<Double>, _ velocity: SIMD3<Double>, at times: [Double], model: BallModel
  ) -> SIMD3<Double> {
    guard let first = times.min(), first < 0 else { return velocity }
    return model.advance(position, velocity, by: first).1
  }

  /// The spin as written to `events.json` (rev/s).
  public var report: BallSpin {
    let revolution = 2 * Double.pi
    return BallSpin(topspin: topspin / revolution, sidespin: sidespin / revolution, uncertainty: uncertainty / revolution)
  }
}

extension FlightFit {
  /// Critical value of the spin test: the spin's two components are kept when they lower the squared
  /// residual by more than this many times the residual variance — the F-test of nested least-squares
  /// models (2 extra parameters; Seber & Wild, Nonlinear Regression, §5.3) in its large-sample χ²₂
  /// form, at a significance level of 0.1 % (χ²₂ quantile −2 ln 0.001 ≈ 13.8), so that a spinless
  /// match shows almost no false spin among hundreds of flights.
  public static let spinTestCritical = 13.8

  /// The flight fitted without spin and, when the samples can show it, with spin free; the spinning
  /// path is returned only when the F-test (`spinTestCritical`) prefers it, and its `spin` is set
  /// (reported) only when the test prefers it again without the flight's end samples and the flight
  /// lasts `minimumSpinDuration`, so spinless flights get no spin; otherwise the spin the samples
  /// give is its `spinCandidate`. `model` gives the drag (and Magnus constant) to use. With `start` (an earlier fit of the
  /// flight), the spinless fit starts from its state and the spinning one from it when it has a spin,
  /// else from the spinless fit (`fit(_:model:frames:iterations:free:start:)`).
  public static func fitTestingSpin(
    _ samples: [(time: Double, position: SIMD3<Double>)], model: BallModel, frames: ClosedRange<Int>, start: BallFlight? = nil
  ) -> BallFlight? {
    var spinless = model
    spinless.spin = .zero
    guard let plain = fit(samples, model: spinless, frames: frames, start: start) else { return nil }
    let times = samples.map { $0.time - plain.referenceTime }
    guard model.magnus > 0, samples.count >= 8,
      FlightSpin.basis(velocity: FlightSpin.launchVelocity(plain.position, plain.velocity, at: times, model: plain.model)) != nil
    else { return plain }
    // The path: every sample, spinning when the test prefers it.
    let tested = spinTested(samples, plain: plain, model: spinless, frames: frames, start: start)
    guard let path = tested.kept else {
      var unspun = plain
      unspun.spinCandidate = tested.candidate
      return unspun
    }
    // The spin reported: tested again without the samples within `contactSamples` of each end — the
    // segmentation places a contact to within a frame, so an end sample may lie on the neighbouring
    // flight, and a spin term bends the path into the V of the contact to reach it — and only on a
    // flight of at least `minimumSpinDuration`. A path whose spin is not reported keeps it as its
    // `spinCandidate`.
    var reported = path
    reported.spin = nil
    reported.spinCandidate = path.spin
    let ordered = samples.sorted { $0.time < $1.time }
    let inner = Array(ordered[contactSamples..<(ordered.count - contactSamples)])
    guard inner.count >= 8, inner[inner.count - 1].time - inner[0].time >= minimumSpinDuration,
      let plainInner = fit(inner, model: spinless, frames: frames, start: plain)
    else { return reported }
    let confirmed = spinTested(inner, plain: plainInner, model: spinless, frames: frames, start: path)
    if let kept = confirmed.kept?.spin {
      reported.spin = kept
      reported.spinCandidate = nil
    } else if let candidate = confirmed.candidate {
      reported.spinCandidate = candidate
    }
    return reported
  }

  /// The samples a contact may have put on the wrong side of it, at each end of a flight.
  public static let contactSamples = 1

  /// The shortest span of samples (seconds) a spin is fitted to. The spin bends a flight of duration
  /// T by ½ k_M |ω × v| T² against its initial velocity, so a smooth error of a few millimetres along
  /// the path, which a triangulated path carries from its cameras' calibration, reads as a spin
  /// growing as 1/T²: on 0.2 s flights of spinless simulated matches it read as 58 and 69 rev/s of
  /// sidespin at 4σ (0.18 s of samples once the end samples are left out), while longer flights
  /// showed none once their end samples were left out.
  public static let minimumSpinDuration = 0.2

  /// The spinning fit of `samples` when the F-test prefers it to `plain` (their spinless fit), else
  /// nil and the spin fitted (the full fit's, or the first Gauss–Newton step's when that stopped the
  /// test) when it is plausible.
  static func spinTested(
    _ samples: [(time: Double, position: SIMD3<Double>)], plain: BallFlight, model spinless: BallModel, frames: ClosedRange<Int>,
    start: BallFlight?
  ) -> (kept: BallFlight?, candidate: FlightSpin?) {
    let rssPlain = plain.rms * plain.rms * Double(samples.count)
    func statistic(_ spinning: BallFlight) -> Double {
      let rssSpin = spinning.rms * spinning.rms * Double(samples.count)
      let variance = rssSpin / max(1, Double(3 * samples.count) - 8)
      return variance > 0 ? (rssPlain - rssSpin) / variance : 0
    }
    // Without a spinning start, one Gauss–Newton step from the spinless fit first: the spin enters
    // the path nearly linearly, so that step takes almost all the decrease the full fit would (the
    // score test (Rao, 1948) standing in for the F-test); a flight far below the critical
    // value after it is spinless, and the full fit is skipped.
    var spinStart = start?.spin != nil ? start! : plain
    if start?.spin == nil {
      guard let step = fit(samples, model: spinless, frames: frames, iterations: 1, free: FlightFitFreedom(spin: true), start: plain),
        let stepSpin = step.spin
      else { return (nil, nil) }
      guard statistic(step) > spinTestCritical / 4 else { return (nil, stepSpin.isPlausible ? stepSpin : nil) }
      spinStart = step
    }
    guard let spinning = fit(samples, model: spinless, frames: frames, free: FlightFitFreedom(spin: true), start: spinStart),
      let spin = spinning.spin, spin.isPlausible
    else { return (nil, nil) }
    // The test's variance and the spin's uncertainty assume independent residuals; a smooth error
    // along the flight (a calibration fault moves the ball smoothly) correlates them, and both are
    // scaled by the variance inflation of that correlation (`varianceInflation`).
    let inflation = varianceInflation(residualCorrelation: residualAutocorrelation(spinning, samples: samples))
    var honest = spinning
    honest.spin?.uncertainty = spin.uncertainty * inflation.squareRoot()
    guard statistic(spinning) / inflation > spinTestCritical else { return (nil, honest.spin) }
    return (honest, nil)
  }
}
