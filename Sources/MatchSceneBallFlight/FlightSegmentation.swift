import MatchSceneCore

/// Settings of `FlightSegmentation`.
public struct FlightSegmentationOptions: Sendable {
  /// A new observation that misses the current flight's prediction by more than
  /// max(`breakDistance`, `breakFactor` · rms) is a candidate contact, metres.
  public var breakDistance: Double = 0.035
  public var breakFactor: Double = 4
  /// A flight needs at least this many observations.
  public var minObservations = 4
  /// A part of a flight split at a surface needs at least this many (a settling hop with a missed frame).
  public var minSplitObservations = 3
  /// Observation gaps longer than this (seconds) end a flight: the ball was lost or out of play.
  public var maxGap: Double = 0.25
  /// A fitted path lying deeper than this inside the floor or the table top at one of its observations
  /// spans a contact and is split there, metres (a little above the fitted path's noise).
  public var penetrationTolerance: Double = 0.005
  /// A fitted path passing more than this above an observation of the ball touching a surface spans a
  /// contact too, metres.
  public var touchGap: Double = 0.01
  /// Consecutive flights one path fits with an RMS at most this times the larger of theirs are one
  /// flight (a bad observation broke it).
  public var mergeFactor: Double = 1.5
  /// Consecutive flights whose paths' velocities differ by more than this where they meet (m/s) met
  /// at a contact and are not tried as one (a stroke changes it by 10 m/s and more, most bounces by
  /// 4–6; two pieces of one path agree within a few tenths; at 2 m/s a join was missed on a simulated
  /// match).
  public var mergeVelocityJump: Double = 4
  /// A flight of at least this many observations may be fitted with its spin free when the model has
  /// a Magnus constant: a heavily spinning ball (100 rev/s and more) bends a long flight by centimetres
  /// more than a spinless path can follow, which would break it at the gate. The spin is freed where
  /// the spinless path fails (`FlightSegmentation.spinningFit`) and for each flight's final path.
  public var spinFreeFrom = 10
  public init() {}
}

/// Splits a ball track into free flights between contacts and fits each with the drag model.
///
/// Greedy, one pass: a flight starts from a few observations, is refitted as observations are added,
/// and ends when the next two observations both leave its predicted path (a single stray point is
/// taken as an outlier and skipped). This is sequential model fitting with a prediction gate, the
/// approach of ball-tracking systems such as Hawk-Eye-style trackers (e.g. Owens, Harris & Stennett,
/// "Hawk-eye tennis system", IEE VIE 2003).
///
/// A bounce too small to leave the gate — a ball settling in hops of 1–2 cm, a ball dropping off the
/// net onto the table — still leaves a trace: one fitted path through both sides dips into the surface.
/// With `surfaces`, such a flight is split into the fewest parts that each stay clear of the surfaces
/// (`FlightSegmentation+Surfaces.swift`).
public struct FlightSegmentation: Sendable {
  public var model: BallModel
  /// Surfaces the ball cannot pass through (nil: no such check).
  public var surfaces: BallSurfaces?
  public var options: FlightSegmentationOptions
  public init(model: BallModel, surfaces: BallSurfaces? = nil, options: FlightSegmentationOptions = .init()) {
    self.model = model
    self.surfaces = surfaces
    self.options = options
  }

  /// Flights in time order. `observations` are (frame, position), any order, one per frame.
  ///
  /// No flight, seed or merge spans a gap of more than `maxGap` (plus the seed's own frames) between
  /// observations, so the track is cut at such gaps and the pieces are segmented in parallel; each
  /// piece is processed exactly as in one pass over the whole track, so the flights are the same
  /// whatever the number of threads.
  public func flights(_ observations: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> [BallFlight] {
    let obs = observations.sorted { $0.frame < $1.frame }
    let maxGapFrames = Int((options.maxGap * fps).rounded())
    let cutGap = max(0, options.minObservations - 1) + max(0, maxGapFrames)
    var pieces: [Range<Int>] = []
    var pieceStart = 0
    for i in obs.indices.dropFirst() where obs[i].frame - obs[i - 1].frame > cutGap {
      pieces.append(pieceStart..<i)
      pieceStart = i
    }
    if pieceStart < obs.count { pieces.append(pieceStart..<obs.count) }
    let found = try! parallelMap(pieces) { piece in mergeUnbroken(greedyFlights(obs, piece, fps: fps), obs, fps: fps) }
    return found.flatMap { $0.map(\.flight) }
  }

  /// The greedy pass over the observations `piece` of `obs` (sorted by frame): flights with the indices
  /// of their member observations.
  func greedyFlights(
    _ obs: [(frame: Int, position: SIMD3<Double>)], _ piece: Range<Int>, fps: Double
  ) -> [(flight: BallFlight, members: [Int])] {
    var flights: [(flight: BallFlight, members: [Int])] = []
    var start = piece.lowerBound
    let end = piece.upperBound
    let maxGapFrames = Int((options.maxGap * fps).rounded())
    while start + options.minObservations <= end {
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
      var explained = members.count
      var spinTried = 0  // the member count at which a spinning path was last tried
      while next < end {
        let last = obs[members.last!].frame
        if obs[next].frame - last > maxGapFrames { break }
        let predicted = flight.position(at: Double(obs[next].frame) / fps)
        let gate = max(options.breakDistance, options.breakFactor * flight.rms)
        if length(predicted - obs[next].position) > gate {
          // A spinning ball leaves the spinless path that followed it so far: before taking the miss
          // as a contact, the members are fitted once with their spin free, and the flight goes on
          // spinning when that path reaches the observation.
          if flight.spin == nil, spinTried != members.count, let spinning = spinningFit(members, obs, fps: fps, start: flight) {
            spinTried = members.count
            let reach = max(options.breakDistance, options.breakFactor * spinning.rms)
            if spinning.rms <= options.breakDistance,
              length(spinning.position(at: Double(obs[next].frame) / fps) - obs[next].position) <= reach
            {
              flight = spinning
              explained = members.count
              continue
            }
          }
          // Two misses in a row end the flight; one is an outlier.
          if next + 1 < end {
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
        // Refit as the flight grows (every point while short, then every third). A path must explain
        // its observations within `breakDistance` RMS, as its seed had to: the gate grows with the
        // RMS, and without that bound a flight could swallow a stroke and the next flight (on the
        // harder simulator's seed 2 one did, and its path missed the ball by up to 0.8 m). The
        // observations since the last refit that kept it are left for the next flight.
        if members.count < 12 || members.count % 3 == 0, var refit = fit(members, obs, fps: fps, start: flight) {
          // A spinless path whose RMS would widen the gate beyond `breakDistance` may be missing the
          // ball's spin: the members are fitted with it free, and the flight goes on spinning when
          // that path fits them better.
          if options.breakFactor * refit.rms > options.breakDistance, refit.spin == nil, spinTried != members.count,
            let spinning = spinningFit(members, obs, fps: fps, start: refit)
          {
            spinTried = members.count
            if spinning.rms < refit.rms { refit = spinning }
          }
          guard refit.rms <= options.breakDistance else {
            members.removeLast(members.count - explained)
            break
          }
          flight = refit
          explained = members.count
        }
      }
      // The last refit is the final fit when it had all the members.
      if explained != members.count, let final = fit(members, obs, fps: fps, start: flight) { flight = final }
      // The flight's final path has its spin free (once, from the spinless path): it is the path the
      // surface check, the merge and the later refits gather the flight's observations along.
      if flight.spin == nil, let spinning = spinningFit(members, obs, fps: fps, start: flight) { flight = spinning }
      let parts = splitAtSurfaces(members, obs, fps: fps, fitted: flight)
      if parts.count == 1 {
        flights.append((flight, members))
        start = members.last! + 1
      } else {
        // A part lies between two contacts, so three observations fix its path (gravity known, two
        // unknowns per axis); shorter parts are the frames between a net touch and the bounce after it.
        for part in parts.dropLast() where part.count >= options.minSplitObservations {
          if let f = fit(part, obs, fps: fps) { flights.append((f, part)) }
        }
        // The last part grows again on its own: the gate of the path through the contact may have
        // ended it early.
        start = parts.last!.first!
      }
      _ = misses
    }
    return flights
  }

  /// Joins consecutive flights that one path fits as well: a bad observation can end a flight in
  /// mid-air (two misses in a row), and the contact between the pieces would be a phantom. The joined
  /// fit must stay within `mergeFactor` of the pieces' RMS and clear of every surface.
  func mergeUnbroken(
    _ flights: [(flight: BallFlight, members: [Int])], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double
  ) -> [(flight: BallFlight, members: [Int])] {
    var out: [(flight: BallFlight, members: [Int])] = []
    let maxGapFrames = Int((options.maxGap * fps).rounded())
    for next in flights {
      if let last = out.last, next.flight.frames.lowerBound - last.flight.frames.upperBound <= maxGapFrames {
        let members = last.members + next.members
        let longer = last.members.count >= next.members.count ? last.flight : next.flight
        let limit = options.mergeFactor * max(last.flight.rms, next.flight.rms)
        // Cheap test first: most consecutive flights meet at a contact, where the velocity jumps by
        // metres per second; a joined fit is tried only when the two paths' velocities agree.
        if !jumps(last.flight, next.flight, at: Double(next.flight.frames.lowerBound + last.flight.frames.upperBound) / (2 * fps)),
          var joined = fit(members, obs, fps: fps, start: longer)
        {
          if joined.rms > limit, joined.spin == nil, let spinning = spinningFit(members, obs, fps: fps, start: joined) {
            joined = spinning
          }
          if joined.rms <= limit, !goesThrough(joined, members, obs, fps: fps) {
            out[out.count - 1] = (joined, members)
            continue
          }
        }
      }
      out.append(next)
    }
    return out
  }

  /// Whether the fitted path disagrees with the surfaces at one of the observations' times.
  func goesThrough(_ flight: BallFlight, _ members: [Int], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> Bool {
    guard surfaces != nil else { return false }
    let fitted = flight.positions(at: members.map { Double(obs[$0].frame) / fps })
    return zip(members, fitted).contains { i, p in disagrees(fitted: p, observed: obs[i].position) }
  }

  /// Whether a fitted position contradicts the surfaces: it lies inside one (deeper than
  /// `penetrationTolerance`, and than the observation itself — a noisy observation may lie inside too,
  /// and a path through it is no evidence of a contact), or the ball was observed touching one (within
  /// `penetrationTolerance` of resting on it) while the path passes more than `touchGap` above — the V
  /// of a bounce that one arch straddles.
  func disagrees(fitted: SIMD3<Double>, observed: SIMD3<Double>) -> Bool {
    guard let surfaces else { return false }
    let depth = surfaces.penetration(fitted), observedDepth = surfaces.penetration(observed)
    if depth > max(0, observedDepth) + options.penetrationTolerance { return true }
    return observedDepth > -options.penetrationTolerance && depth < -options.touchGap
  }

  /// Whether the velocities of the paths `a` and `b` at match time `t` differ by more than
  /// `mergeVelocityJump`: a contact between them that no single path can join.
  func jumps(_ a: BallFlight, _ b: BallFlight, at t: Double) -> Bool {
    length(a.velocity(at: t) - b.velocity(at: t)) > options.mergeVelocityJump
  }

  /// The flight through the observations `members` of `obs`; spinning when `start` (an earlier fit of
  /// most of them to start from) spins, else spinless.
  func fit(
    _ members: [Int], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double, start: BallFlight? = nil
  ) -> BallFlight? {
    if start?.spin != nil, let spinning = spinningFit(members, obs, fps: fps, start: start) { return spinning }
    let samples = members.map { (time: Double(obs[$0].frame) / fps, position: obs[$0].position) }
    return FlightFit.fit(samples, model: model, frames: obs[members.first!].frame...obs[members.last!].frame, start: start)
  }

  /// The flight through `members` with its spin free, when the model has a Magnus constant, there are
  /// at least `spinFreeFrom` members and the fitted spin is plausible (`FlightSpin.isPlausible`).
  /// A growing flight is fitted with its spin only where its spinless path fails (it misses the next
  /// observation, or its RMS would widen the gate beyond `breakDistance`) and keeps it from then on;
  /// every flight's final path is fitted with it once. On a spinless match this costs one spinning
  /// fit per flight instead of one per refit.
  func spinningFit(
    _ members: [Int], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double, start: BallFlight?
  ) -> BallFlight? {
    guard model.magnus > 0, members.count >= options.spinFreeFrom else { return nil }
    let samples = members.map { (time: Double(obs[$0].frame) / fps, position: obs[$0].position) }
    let frames = obs[members.first!].frame...obs[members.last!].frame
    guard let spinning = FlightFit.fit(samples, model: model, frames: frames, free: FlightFitFreedom(spin: true), start: start),
      let spin = spinning.spin, spin.isPlausible
    else { return nil }
    return spinning
  }
}
