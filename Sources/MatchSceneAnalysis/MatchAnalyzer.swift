import MatchSceneCore

/// Settings of `MatchAnalyzer`.
public struct AnalysisOptions: Sendable {
  public var smoothing = SmoothingOptions()
  /// Make every player's bone lengths constant over the match.
  public var boneLengths = true
  /// Fit ball flights with the physics model, fill missed frames inside flights, find events.
  public var ballPhysics = true
  public var segmentation = FlightSegmentationOptions()
  public var events = EventDetectionOptions()
  public init() {}
}

/// What the analysis produced.
public struct AnalysisResult: Sendable {
  /// The cleaned reconstruction (smoothed players, physics-fitted ball).
  public var reconstruction: Reconstruction
  public var events: [MatchEvent]
  public var flights: [BallFlight]
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

  public func run(_ input: Reconstruction) -> AnalysisResult {
    var reconstruction = TrackSmoother(options: options.smoothing).smooth(input)
    if options.boneLengths { reconstruction = BoneLengthConstraint().apply(to: reconstruction) }
    guard options.ballPhysics else { return AnalysisResult(reconstruction: reconstruction, events: [], flights: []) }
    let fps = reconstruction.fps
    let ballPoints = reconstruction.points.filter { $0.kind == .ball }
    let observations = ballPoints.map { (frame: $0.frame, position: $0.position) }
    let flights = FlightSegmentation(
      model: ball, surfaces: BallSurfaces(ballRadius: ballRadius, table: table), options: options.segmentation
    ).flights(observations, fps: fps)
    guard let table else {
      // No events without the table, so no rallies: the ball is reported wherever it was seen.
      let points = Self.replacingBall(in: reconstruction, flights: flights, observed: ballPoints) { _, _ in true }
      return AnalysisResult(reconstruction: points, events: [], flights: flights)
    }
    var wrists: [String: [Int: [SIMD3<Double>]]] = [:]
    for p in reconstruction.points where p.kind == .player && (p.joint.hasSuffix("wrist") || p.joint.hasSuffix("hand")) {
      wrists[p.track, default: [:]][p.frame, default: []].append(p.position)
    }
    let ballByFrame = Dictionary(observations.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
    let events = EventDetector(table: table, options: options.events).detect(
      flights: flights, ball: ballByFrame, wrists: wrists, fps: fps)
    // The ball: fitted positions inside flights (missed frames filled), observations elsewhere while a
    // rally is on, nothing while the ball is out of play.
    let rallies = Rallies.inPlay(
      events, ball: ballByFrame, maxGap: Int((options.segmentation.maxGap * fps).rounded()),
      stillFrames: Int((Rallies.palmStill * fps).rounded()), stillRadius: options.events.restNoise)
    let points = Self.replacingBall(in: reconstruction, flights: flights, observed: ballPoints) { frame, fitted in
      rallies.contains { $0.contains(frame) } || (fitted && rallies.isEmpty)
    }
    return AnalysisResult(reconstruction: points, events: events, flights: flights)
  }

  /// `reconstruction` with its ball replaced: at each frame `keep(frame, fitted)` accepts, the fitted
  /// position of the flight covering it (`fitted` true; missed frames filled, the observation's
  /// reprojection error and views kept), else the observation (`fitted` false).
  static func replacingBall(
    in reconstruction: Reconstruction, flights: [BallFlight], observed: [TrackPoint], keep: (Int, Bool) -> Bool
  ) -> Reconstruction {
    let fps = reconstruction.fps
    var original: [Int: TrackPoint] = [:]
    for p in observed { original[p.frame] = p }
    var ballOut: [Int: TrackPoint] = [:]
    for flight in flights {
      for frame in flight.frames where keep(frame, true) {
        let observed = original[frame]
        ballOut[frame] = TrackPoint(
          frame: frame, time: Double(frame) / fps, track: observed?.track ?? "ball", kind: .ball, joint: "ball",
          position: flight.position(at: Double(frame) / fps), reprojectionPx: observed?.reprojectionPx ?? -1,
          views: observed?.views ?? 0)
      }
    }
    for p in observed where ballOut[p.frame] == nil && keep(p.frame, false) { ballOut[p.frame] = p }
    var points = reconstruction.points.filter { $0.kind != .ball }
    points += ballOut.values
    points.sort { ($0.frame, $0.kind == .ball ? 1 : 0, $0.track) < ($1.frame, $1.kind == .ball ? 1 : 0, $1.track) }
    return Reconstruction(fps: fps, skeleton: reconstruction.skeleton, points: points)
  }

  /// `Rallies.ranges`: frame ranges from each rally start to its end.
  public static func rallyRanges(_ events: [MatchEvent], openUntil: Int? = nil) -> [ClosedRange<Int>] {
    Rallies.ranges(events, openUntil: openUntil)
  }
}
