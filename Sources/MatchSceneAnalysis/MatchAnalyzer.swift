import MatchSceneBallFlight
import MatchSceneCore

/// Settings of `MatchAnalyzer`.
public struct AnalysisOptions: Sendable {
  public var smoothing = SmoothingOptions()
  /// Make every player's bone lengths constant over the match.
  public var boneLengths = true
  /// With `boneLengths`: bone lengths as a weighted term that keeps every joint within its reprojection
  /// tolerance (`SoftBoneLengths`, given the cameras' pixel scale in the analysis frame); nil holds them
  /// fixed (`BoneLengthConstraint`). `MatchPipeline` sets it from the cameras.
  public var softBones: SoftBoneLengths?
  /// Fit ball flights with the physics model, fill missed frames inside flights, find events.
  public var ballPhysics = true
  public var segmentation = FlightSegmentationOptions()
  /// Estimate the drag from the match's own flights (`DragEstimate`) and refit every flight with it and
  /// with its spin when the model test keeps it (`FlightFit.fitTestingSpin`); off: the flights as
  /// segmented with the sport's drag, spinless.
  public var ballDragAndSpin = true
  public var dragEstimate = DragEstimateOptions()
  public var events = EventDetectionOptions()
  /// When the ball counts as at rest (`ball_at_rest` events, for every sport).
  public var ballAtRest = BallRestOptions()
  /// When set, each flight's reported positions come from `flightRefit(flight, span, ends)` (span: the
  /// frames of the observations its fit kept; ends: the end frames `BallFlightEnds` trimmed), which
  /// returns the flight and the end frames still to be reported as observed — e.g. the flight fitted to
  /// each camera's detections at its own instants on a rig that is not synchronised
  /// (`AsynchronousFlightFit`). Events are found on the flights as segmented.
  public var flightRefit: (@Sendable (_ flight: BallFlight, _ span: ClosedRange<Int>, _ ends: Set<Int>) -> (BallFlight, Set<Int>))?
  /// When set (instead of `flightRefit`), all flights are refitted together, so that two flights
  /// meeting at a contact can share it: given each flight with the span of its kept observations (nil:
  /// none) and its trimmed end frames, it returns each flight (its `frames` the match frames it reports)
  /// with the end frames still to be reported as observed, in the same order — e.g. the contacts fitted
  /// in continuous time under unsynchronised cameras (`AsynchronousFlightFit.refit(_:)`).
  public var flightsRefit: FlightsRefit?
  public typealias FlightsRefit = @Sendable (_ flights: [(flight: BallFlight, span: ClosedRange<Int>?, ends: Set<Int>)]) -> [(flight: BallFlight, ends: Set<Int>)]
  public init() {}
}

/// What the analysis produced.
public struct AnalysisResult: Sendable {
  /// The cleaned motion (smoothed people, physics-fitted ball), in the frame the analysis was given.
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var flights: [BallFlight]
  /// The match's drag constant as estimated from its flights (nil: not estimated).
  public var drag: DragEstimate?

  public init(motion: MotionModel, events: [MatchEvent], flights: [BallFlight], drag: DragEstimate? = nil) {
    self.motion = motion
    self.events = events
    self.flights = flights
    self.drag = drag
  }
}

/// Time-domain analysis of a reconstruction: player smoothing and bone lengths, ball flights and the
/// match's events.
///
/// Every sport gets the players' smoothing, gap filling and bone lengths, and the ball's flights
/// fitted with its drag model (missed frames inside a flight filled, flights split where they meet the
/// floor). The events — bounces, hits, the net, rallies decided by the ITTF rules — need the table
/// and are found for table tennis only.
public struct MatchAnalyzer: Sendable {
  /// The table tennis table; nil for a sport without one (no events are found).
  public var table: TableGeometry?
  public var ball: BallModel
  /// The ball's radius, metres (its centre rests this high on the floor).
  public var ballRadius: Double
  public var options: AnalysisOptions

  public init(table: TableGeometry, ball: BallModel, options: AnalysisOptions = .init()) {
    self.init(table: table, ball: ball, ballRadius: table.ballRadius, options: options)
  }

  public init(table: TableGeometry?, ball: BallModel, ballRadius: Double, options: AnalysisOptions = .init()) {
    self.table = table
    self.ball = ball
    self.ballRadius = ballRadius
    self.options = options
  }

  /// Analyses `motion`, which must be in venue coordinates (`VenueFrame`: z up, floor at z = 0, the
  /// table centred on the origin with the net in the plane x = 0); positions in the result and its
  /// events are in the same frame.
  ///
  /// The people (smoothing, bone lengths) and the ball (flights, rests) are analysed side by side: the
  /// people's work leaves the ball's track as it is and the ball's reads nothing else, so the result
  /// is the same as one after the other.
  public func run(_ motion: MotionModel) -> AnalysisResult {
    let analysis = self
    let ballPart = options.ballPhysics ? motion.ballTrack : nil
    let (people, ballWork) = concurrently {
      var people = motion
      TrackSmoother(options: analysis.options.smoothing).smooth(&people)
      if analysis.options.boneLengths {
        if let soft = analysis.options.softBones { soft.apply(to: &people) } else { BoneLengthConstraint().apply(to: &people) }
      }
      return people
    } _: {
      ballPart.map { analysis.ballFlightsAndRests(motion.tracks[$0], fps: motion.fps) }
    }
    var motion = people
    guard let b = ballPart, let ballWork else { return AnalysisResult(motion: motion, events: [], flights: []) }
    let (flights, ballByFrame, rests, drag) = ballWork
    let fps = motion.fps
    let ball = motion.tracks[b]
    guard let table else {
      // No rule engine without the table: rallies run from the ball starting to move to its coming to
      // rest or being lost; the ball is reported wherever it was seen.
      motion.tracks[b] = Self.replacingBall(ball, flights: flights, fps: fps, refit: options.flightRefit, refitAll: options.flightsRefit) { _, _ in true }
      let rallies = BallRest.rallies(
        ballByFrame, rests: rests, fps: fps, lostDuration: options.events.lostDuration, hold: options.ballAtRest.hold)
      return AnalysisResult(motion: motion, events: Self.inTimeOrder(rests + rallies), flights: flights, drag: drag)
    }
    var wrists: [String: [Int: [SIMD3<Double>]]] = [:]
    let wristJoints = motion.skeleton.wrists
    for t in motion.personTracks {
      let track = motion.tracks[t]
      var byFrame: [Int: [SIMD3<Double>]] = [:]
      for frame in track.frames {
        let here = wristJoints.compactMap { track.position(joint: $0, frame: frame) }
        if !here.isEmpty { byFrame[frame] = here }
      }
      if !byFrame.isEmpty { wrists[track.id] = byFrame }
    }
    let events = FlightSpinEvents.attach(
      to: EventDetector(table: table, options: options.events).detect(flights: flights, ball: ballByFrame, wrists: wrists, fps: fps),
      flights: flights)
    // The ball: fitted positions inside flights (missed frames filled), observations elsewhere while a
    // rally is on, nothing while the ball is out of play.
    let rallies = Rallies.inPlay(
      events, ball: ballByFrame, maxGap: Int((options.segmentation.maxGap * fps).rounded()),
      stillFrames: Int((Rallies.palmStill * fps).rounded()), stillRadius: options.events.restNoise)
    motion.tracks[b] = Self.replacingBall(ball, flights: flights, fps: fps, refit: options.flightRefit, refitAll: options.flightsRefit) { frame, fitted in
      rallies.contains { $0.contains(frame) } || (fitted && rallies.isEmpty)
    }
    return AnalysisResult(motion: motion, events: Self.inTimeOrder(events + rests), flights: flights, drag: drag)
  }

  /// The ball's flights (`FlightSegmentation`; with `ballDragAndSpin`, refitted with the match's drag
  /// and their spin), its observations by frame, its `ball_at_rest` events (`BallRest`), and the drag
  /// estimate, from the ball's track as reconstructed.
  func ballFlightsAndRests(
    _ ball: MotionTrack, fps: Double
  ) -> (flights: [BallFlight], byFrame: [Int: SIMD3<Double>], rests: [MatchEvent], drag: DragEstimate?) {
    let observations = ball.frames.compactMap { frame in ball.position(joint: 0, frame: frame).map { (frame: frame, position: $0) } }
    var flights = FlightSegmentation(
      model: self.ball, surfaces: BallSurfaces(ballRadius: ballRadius, table: table), options: options.segmentation
    ).flights(observations, fps: fps)
    var drag: DragEstimate?
    if options.ballDragAndSpin {
      (flights, drag) = FlightRefit(model: self.ball, segmentation: options.segmentation, dragOptions: options.dragEstimate)
        .refit(flights, observations: observations, fps: fps)
    }
    let ballByFrame = Dictionary(observations.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    // With a table, a rest over it must lie on its top (`BallRestOptions.surfaceTolerance`).
    let rests = BallRest.events(
      ballByFrame, fps: fps, options: options.ballAtRest, surfaces: table.map { BallSurfaces(ballRadius: ballRadius, table: $0) })
    return (flights, ballByFrame, rests, drag)
  }

  /// Events sorted by frame, stably; at one frame a rally's start first and its end last.
  static func inTimeOrder(_ events: [MatchEvent]) -> [MatchEvent] {
    func rank(_ e: MatchEvent) -> Int { e.type == .rallyStart ? 0 : e.type == .rallyEnd ? 2 : 1 }
    return events.enumerated().sorted { a, b in
      (a.element.frame, rank(a.element), a.offset) < (b.element.frame, rank(b.element), b.offset)
    }.map(\.element)
  }

  /// The ball's track replaced: at each frame `keep(frame, fitted)` accepts, the fitted position of the
  /// flight covering it (`fitted` true; the observation's reprojection error and views kept, a missed
  /// frame `.filled`), else the observation (`fitted` false); missing elsewhere. A flight's end
  /// observations that its fit misses by far more than its noise are kept as observed, and the flight
  /// is fitted again without them (`BallFlightEnds`).
  static func replacingBall(
    _ observed: MotionTrack, flights: [BallFlight], fps: Double,
    refit: (@Sendable (BallFlight, ClosedRange<Int>, Set<Int>) -> (BallFlight, Set<Int>))? = nil,
    refitAll: AnalysisOptions.FlightsRefit? = nil, keep: (Int, Bool) -> Bool
  ) -> MotionTrack {
    var out = observed
    out.samples = Array(repeating: .missing, count: observed.samples.count)
    var fitted = [Bool](repeating: false, count: observed.frameCount)
    // Each flight trimmed (and, with `refit`, refitted alone) on all cores; with `refitAll` the trimmed
    // flights are refitted together instead (adjacent flights share their contact). Then each flight's
    // positions at the frames it may report, on all cores; `keep` chooses among them in the flights' order.
    // `try!`: the bodies throw nothing, so neither does `parallelMap`.
    var pieces = try! parallelMap(flights) { whole -> (flight: BallFlight, span: ClosedRange<Int>?, ends: Set<Int>) in
      var (flight, ends) = BallFlightEnds.trimmed(whole, observed: observed, fps: fps)
      let kept = flight.frames.filter { !ends.contains($0) && observed.frames.contains($0) && observed[joint: 0, frame: $0].isPresent }
      let span = kept.first.map { $0...kept.last! }
      if refitAll == nil, let refit, let span { (flight, ends) = refit(flight, span, ends) }
      return (flight, span, ends)
    }
    if let refitAll {
      pieces = zip(pieces, refitAll(pieces)).map { ($1.flight, $0.span, $1.ends) }
    }
    let reported = try! parallelMap(pieces) { piece -> [(frame: Int, position: SIMD3<Double>)] in
      piece.flight.frames.filter { observed.frames.contains($0) && !piece.ends.contains($0) }.map { frame in
        (frame, piece.flight.position(at: Double(frame) / fps))
      }
    }
    for flight in reported {
      for (frame, position) in flight where keep(frame, true) {
        let seen = observed[joint: 0, frame: frame]
        out[joint: 0, frame: frame] = MotionSample(
          position: position, reprojectionPx: seen.isPresent ? seen.reprojectionPx : -1,
          views: seen.isPresent ? Int(seen.views) : 0, state: seen.isPresent ? seen.state : .filled)
        fitted[frame - observed.firstFrame] = true
      }
    }
    for frame in observed.frames where !fitted[frame - observed.firstFrame] {
      let seen = observed[joint: 0, frame: frame]
      if seen.isPresent && keep(frame, false) { out[joint: 0, frame: frame] = seen }
    }
    return out
  }

  /// `Rallies.ranges`: frame ranges from each rally start to its end.
  public static func rallyRanges(_ events: [MatchEvent], openUntil: Int? = nil) -> [ClosedRange<Int>] {
    Rallies.ranges(events, openUntil: openUntil)
  }
}
