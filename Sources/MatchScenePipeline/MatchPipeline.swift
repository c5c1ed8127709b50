import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO
import MatchSceneReconstruction

/// The warnings and notes of a run, each passed on as it is found.
struct DiagnosticLog {
  private(set) var all: [Diagnostic] = []
  let handler: (@Sendable (Diagnostic) -> Void)?

  init(_ handler: (@Sendable (Diagnostic) -> Void)?) { self.handler = handler }

  mutating func append(_ diagnostic: Diagnostic) {
    all.append(diagnostic)
    handler?(diagnostic)
  }
}

/// Seconds spent per stage, in order.
struct StageClock {
  private(set) var laps: [(stage: String, seconds: Double)] = []
  private var last = Date()

  /// Ends `stage`: the time since the previous lap (or the clock's start).
  mutating func lap(_ stage: String) {
    let now = Date()
    laps.append((stage, now.timeIntervalSince(last)))
    last = now
  }
}

/// The whole chain for one match folder, as `matchscene reconstruct` runs it: read → reconstruct
/// (association, robust triangulation, identity tracking) → analyse in the venue frame (smoothing,
/// bone lengths, ball flights, events, who plays, the score) → a `MatchResult` to write.
///
/// ```swift
/// let result = try MatchPipeline().run(URL(fileURLWithPath: "my-match"))
/// try result.write(to: URL(fileURLWithPath: "my-match/out"))
/// ```
public struct MatchPipeline: Sendable {
  public var options: PipelineOptions
  /// Told of each warning and note as soon as it is found (reading, calibration, venue, analysis), so
  /// that a caller can show it even when the run then fails; `MatchResult.diagnostics` lists them too.
  public var onDiagnostic: (@Sendable (Diagnostic) -> Void)?

  public init(options: PipelineOptions = .init(), onDiagnostic: (@Sendable (Diagnostic) -> Void)? = nil) {
    self.options = options
    self.onDiagnostic = onDiagnostic
  }

  /// Told how far a stage has come: its name (`reconstruct`), items done and the total. Called from
  /// any thread.
  public typealias Progress = @Sendable (_ stage: String, _ done: Int, _ total: Int) -> Void

  /// Reads, reconstructs and analyses the match in `folder`.
  /// - Throws: `InputError` naming the file (and line, key or frame) of bad input, or the option out
  ///   of range; `GeometryError` for an unusable camera.
  public func run(_ folder: URL, progress: Progress? = nil) throws -> MatchResult {
    try options.check()
    if let d = try DeviceConfig.read(folder: folder) { return try runOneDevice(folder, device: d.device, fps: d.fps, sport: d.sport) }
    var clock = StageClock()
    var input = options.input
    if input.defaultFPSForSport == nil { input.defaultFPSForSport = { try? SportSpec.builtIn($0).defaultFPS } }
    // The input's SHA-256 for the manifest: the detection files hashed as they are read, the rest on
    // another thread while the run works.
    let digests = FileDigests()
    input.digests = digests
    var loaded = try MatchFolder.load(folder, options: input)
    let inputHash = MatchOutput.PendingHash(folder: folder, digests: digests)
    var diagnostics = DiagnosticLog(onDiagnostic)
    for d in loaded.diagnostics { diagnostics.append(d) }
    // The settings first (an unknown sport is named before the rig is judged), then the rig.
    let sport = try SportSpec.builtIn(loaded.match.sport)
    for d in try RigCheck.check(loaded.match, file: folder.path) { diagnostics.append(d) }
    var (sync, unsynchronisedBalls) = try synchronisedKeepingBalls(&loaded, folder: folder, diagnostics: &diagnostics)
    var match = loaded.match
    let realRange = try Self.frames(options.frames, loaded: loaded, folder: folder)
    // Detections spread over a span mostly empty (a minute of data over hours) run on a compact frame
    // axis: every empty stretch longer than the pad collapsed to it, so that no stage allocates, exports or
    // keys the empty frames; the writers give real frames and times back (`FrameAxis`). The identity for
    // a match without such gaps.
    let axis = match.frameAxis(
      in: realRange, pad: FrameAxis.padFrames(fps: match.fps, longestThreshold: options.analysisOptions.smoothing.maxGap))
    match = match.compacted(to: axis)
    if let raw = unsynchronisedBalls, !axis.isIdentity {
      let balls = raw.balls.map { name, balls in (name, Match.rekeyed(balls, offset: match.frameOffsets[name] ?? 0, axis: axis)) }
      unsynchronisedBalls = (Dictionary(balls, uniquingKeysWith: { a, _ in a }), raw.phases)
    }
    // Not nil: the axis is made from frames inside `realRange`, so neither end lies in a collapsed gap.
    let range = axis.compact(realRange)!
    let zones = options.analysis ? try zones(folder: folder) : []
    // `match` keeps the only reference to the detections, so that they can be let go below.
    loaded.match.detections = [:]
    // The files' bytes and parse buffers, freed between the detections kept, back to the system.
    returnFreedMemory()
    clock.lap("read")
    var options = self.options
    let resolved = options.resolved(for: match)
    options.reconstruction.viewGateSigmas = resolved.viewGateSigmas.value
    options.reconstruction.weighViewsByNoise = resolved.weighViewsByNoise.value

    var reconstructed = try Reconstructor(match: match, options: options.reconstruction).run(frames: range) {
      progress?("reconstruct", $0, range.count)
    }
    clock.lap("reconstruct")
    let givenCameras = match.cameras
    let (check, refinement, floor) = try calibrate(
      options: options, resolved: resolved, &match, &reconstructed, frames: range, folder: folder, diagnostics: &diagnostics, clock: &clock, progress: progress)
    try removeDetectorBias(options: options, resolved: resolved, refined: refinement != nil, &match, &reconstructed, frames: range, folder: folder, diagnostics: &diagnostics, clock: &clock, progress: progress)
    // From here the detections serve the all-views error only, which samples every k-th frame of the
    // motion's frames (`range`): the others are let go, and the memory given back, before the analysis.
    let allViews = AllViewsReprojection(minConfidence: options.reconstruction.triangulation.minConfidence)
    match.detections = allViews.sampledDetections(match, frames: range)
    returnFreedMemory()

    let venue = options.venue ?? match.venue ?? .assumed(worldUp: match.worldUp)
    let inVenue = venue.isIdentity ? reconstructed.motion : reconstructed.motion.transformed(by: venue.venueFromWorld)
    var clockRefinements: [String: Double] = [:]
    var (motion, events) = try analyse(
      inVenue, sport: sport, venue: venue, cameras: match.cameras, resolved: resolved, folder: folder, diagnostics: &diagnostics,
      clockRefinements: &clockRefinements, flightRefit: unsynchronisedBalls.map { raw in
        AsynchronousFlightFit(
          cameras: match.cameras, rawBalls: raw.balls, frameOffsets: match.frameOffsets, phases: raw.phases,
          worldFromVenue: venue.worldFromVenue, fps: match.fps)
      })
    let roles = options.roles.assign(motion, events: events, area: sport.venueArea, table: try sport.tableGeometry() != nil)
    motion = motion.renamingTracks(roles)
    events = events.renamingTracks(roles)
    let settings = resolved.score.value
    // The last frame the ball was seen (before the analysis drops it out of play).
    let lastBall = inVenue.ballTrack.flatMap { b in inVenue.tracks[b].frames.last { inVenue.tracks[b].isPresent(frame: $0) } }
    let story = MatchStory(
      motion: motion, events: events, settings: settings, claimOptions: options.claims, undecidedAfter: lastBall)
    events = story.events
    let scores = story.scores
    if !venue.isIdentity {
      motion = motion.transformed(by: venue.worldFromVenue)
      events = events.map { $0.transformed(by: venue.worldFromVenue) }
    }
    events = Self.addingZoneEvents(events, zones: zones, motion: motion, venue: venue)
    clock.lap("analyse")

    if motion.tracks.allSatisfy({ $0.presentFrameCount == 0 }) {
      throw InputError(
        file: folder.path,
        "nothing was reconstructed in frames \(range.lowerBound)–\(range.upperBound): no person or ball was seen by two "
          + "cameras that agree (check that the cameras see the same scene, the calibration and [frame_offsets])")
    }
    var report = reconstructed.report?.renamingTracks(roles)
    report?.warnings = diagnostics.all.map(\.description)
    report?.sport = sport.id
    report?.venue = .init(venue)
    report?.playerNames = match.playerNames.isEmpty ? nil : match.playerNames
    report?.calibration = check.map { Self.calibrationFigures($0, refinement: refinement) }
    report?.sync = sync?.map { figures in
      var figures = figures
      figures.clockRefinementFrames = clockRefinements[figures.estimate.camera]
      figures.refinedOffset = figures.clockRefinementFrames.map { figures.estimate.offset - $0 }
      return figures
    }
    if report != nil {
      assert(motion.frames == range, "the all-views error samples the run's frames")
      allViews.add(to: &report!, match: match, motion: motion)
      report?.floor = floor
      report?.worldFrame = floor?.levelled == true ? .levelledOnFloor : .calibration
      // Levelled, the given cameras are in another world: their error would say nothing.
      if floor?.levelled != true, givenCameras != match.cameras {
        allViews.addGivenCalibration(to: &report!, match: match, given: givenCameras, motion: motion)
      }
      try leaveOneOut(reconstructed, options: options, sampling: allViews).add(
        to: &report!, match: match, motion: motion, given: floor?.levelled != true && givenCameras != match.cameras ? givenCameras : nil)
    }
    clock.lap("all-views error")
    // Done with the 2D detections (the all-views error above was their last use): the writing goes
    // without them (a long match's detections are a quarter of its memory).
    match.detections = [:]
    returnFreedMemory()
    var result = MatchResult(
      folder: folder, sport: sport, cameras: match.cameras, worldUp: match.worldUp, venue: venue, motion: motion,
      events: events, scores: scores, scoreSettings: settings, disagreements: story.disagreements,
      playerNames: match.playerNames, calibrationCheck: check,
      calibrationRefinement: refinement, report: report, diagnostics: diagnostics.all, frames: range,
      analysed: options.analysis, timings: clock.laps)
    result.viewsUsed = reconstructed.viewsUsed.renamingTracks(roles.mapValues(\.id))
    result.placeOnRealFrames(axis)
    result.calibrationCorrectedInternally = refinement != nil && !options.refineCalibration
    result.resolvedOptions = resolved
    result.settings = resolved.manifestOptions
    result.inputHash = try? inputHash.value()
    return result
  }

  /// Checks each camera against the others on the reconstructed people, warning by name; with
  /// `refineCalibration`, or `correctDisagreeingCameras` when a camera disagrees, refines every camera
  /// (robust bundle adjustment), puts the result back onto the given world frame by a similarity over
  /// the trusted cameras, or over the scene when none is named (`CalibrationRefinementOptions.holdWorldFrame`,
  /// Horn 1987), and reconstructs again with them.
  func calibrate(
    options: PipelineOptions, resolved: ResolvedOptions, _ match: inout Match, _ reconstructed: inout ReconstructionResult, frames range: ClosedRange<Int>, folder: URL,
    diagnostics: inout DiagnosticLog, clock: inout StageClock, progress: Progress?
  ) throws -> (CalibrationSelfCheckResult?, CalibrationRefinementResult?, ReconstructionReport.FloorFigures?) {
    guard options.checkCalibration || options.refineCalibration else { return (nil, nil, nil) }
    let evidence = CalibrationEvidence().sample(match: match, motion: reconstructed.motion)
    let check = CalibrationSelfCheck.check(cameras: match.cameras, points: evidence.points, observations: evidence.observations)
    let correcting = options.refineCalibration || (options.correctDisagreeingCameras && !check.warnings.isEmpty)
    for warning in check.warnings {
      let advice =
        options.refineCalibration ? ""
        : correcting ? "; its pose was corrected from the match for this run (the cameras used are written as calibration-refined.toml; --keep-calibration uses the file as given)"
        : "; --refine-calibration corrects its pose from the match"
      diagnostics.append(Diagnostic(.warning, InputError(
        file: options.calibrationLabel(folder), location: .key(warning.name), warning.message + advice)))
    }
    guard correcting else { return (check, nil, nil) }
    // The refinement also sees the ball (`CalibrationEvidence.sampleWithBall`); the check, people only.
    let evidenceWithBall = CalibrationEvidence().sampleWithBall(match: match, motion: reconstructed.motion)
    var refine = CalibrationRefinementOptions()
    refine.refineFocal = options.refineFocal
    let flagged = Set(check.warnings.map(\.camera))
    let trusted = Set(match.cameras.indices.filter { !flagged.contains($0) })
    var refinement: CalibrationRefinementResult?
    if !options.refineCalibration, !flagged.isEmpty, trusted.count >= 2 {
      // Correcting a camera that disagrees: the trusted cameras stay as given and fix the gauge; only
      // the named cameras move (pose, and focal length when the data supports it). Refining every camera
      // on people whose detector places each joint with its own offset per camera lets the whole rig
      // drift (harder simulator, seed 4: the trusted cameras 0.03–0.05° off as given, 0.2–0.3° after
      // an all-camera adjustment; players 28.9 mm).
      var fixed = refine
      fixed.fixedCameras = trusted
      let corrected = try refined(match.cameras, evidenceWithBall, fixed, choosingFocal: !options.refineFocal)
      refinement = corrected
      // The trusted cameras stay as given even when they disagree among themselves once the named one is
      // corrected (the Pose2Sim demo: cam_01 1.5 px, cam_02 and cam_04 7 px): the calibration's world is the
      // user's, and refining every camera moves it (that demo: 18–34 px through the given cameras). Named,
      // with what re-chooses it.
      let medians = trusted.sorted().map { (corrected.corrections[$0].camera.name, corrected.corrections[$0].after.medianPx) }
      let checkRule = CalibrationSelfCheckOptions()
      if let low = medians.map(\.1).min(), let high = medians.map(\.1).max(), high > checkRule.floorPx, high > checkRule.disagreementRatio * low {
        let figures = medians.map { String(format: "%@ %.1f px", $0.0, $0.1) }.joined(separator: ", ")
        diagnostics.append(Diagnostic(.note, InputError(
          file: options.calibrationLabel(folder),
          "the cameras held as given disagree among themselves once the named one is corrected (median residuals \(figures)); "
            + "--refine-calibration refines every camera (its world then held by these cameras as a whole)")))
      }
    }
    if refinement == nil {
      // Every camera is refined: the ones the check trusts carry smaller systematic residuals of their own
      // (the Pose2Sim demo: 9.0 → 5.9 px in cam_02, 11.3 → 4.9 px in cam_04). The world frame is then put
      // back by a least-squares similarity (Horn 1987).
      refine.holdWorldFrame = true
      if !trusted.isEmpty { refine.worldAnchors = trusted }
      // Nothing named: the scene as the given rig reconstructed it holds the frame (hard-faults simulator,
      // seed 1: players 17.3 mm, ball 11.8 mm, against 19.6 / 15.5 mm held by the cameras). A camera named:
      // the points carry its offset, so the trusted cameras hold it.
      refine.worldFrameAnchor = flagged.isEmpty ? .points : .cameras
      refinement = try refined(match.cameras, evidenceWithBall, refine, choosingFocal: !options.refineFocal)
    }
    guard var refinement else { return (check, nil, nil) }
    let given = match.cameras
    match.cameras = refinement.cameras
    clock.lap("refine calibration")
    var again = options.reconstruction
    again.weighViewsByNoise = resolved.weighViewsByNoiseAfterRefinement.value
    reconstructed = try Reconstructor(match: match, options: again).run(frames: range) {
      progress?("reconstruct again", $0, range.count)
    }
    clock.lap("reconstruct again")
    guard refine.holdWorldFrame, let floor = FloorContact.measureFloor(cameras: match.cameras, anchors: trusted, motion: reconstructed.motion)
    else { return (check, refinement, nil) }
    let file = options.calibrationLabel(folder)
    if options.levelOnFloorContacts {
      diagnostics.append(FloorContact.level(on: floor, given: given, &match, &reconstructed, &refinement, file: file))
    } else {
      diagnostics.append(FloorContact.floorNote(floor, file: file))
    }
    return (check, refinement, .init(floor, levelled: options.levelOnFloorContacts))
  }

  /// With `removeDetectorBias`: estimates each camera's systematic offset per joint from the
  /// reconstruction (`DetectorBias`) and, when significant, removes it from the detections and
  /// reconstructs again.
  func removeDetectorBias(
    options: PipelineOptions, resolved: ResolvedOptions, refined: Bool, _ match: inout Match, _ reconstructed: inout ReconstructionResult,
    frames range: ClosedRange<Int>, folder: URL, diagnostics: inout DiagnosticLog, clock: inout StageClock, progress: Progress?
  ) throws {
    guard options.removeDetectorBias else { return }
    let bias = DetectorBias.estimate(match: match, motion: reconstructed.motion)
    clock.lap("detector bias")
    guard bias.isSignificant else { return }
    diagnostics.append(bias.note(file: folder.appendingPathComponent("pose").path))
    match = bias.removed(from: match)
    var again = options.reconstruction
    if refined { again.weighViewsByNoise = resolved.weighViewsByNoiseAfterRefinement.value }
    reconstructed = try Reconstructor(match: match, options: again).run(frames: range) {
      progress?("reconstruct without detector bias", $0, range.count)
    }
    clock.lap("reconstruct without detector bias")
  }

  /// One refinement of `cameras` on `evidence`; with `choosingFocal`, focal lengths are refined only
  /// when the information criterion supports them (`CalibrationRefinement.refineChoosingFocal`).
  func refined(
    _ cameras: [Camera], _ evidence: (points: [SIMD3<Double>], observations: [CalibrationObservation]),
    _ refine: CalibrationRefinementOptions, choosingFocal: Bool
  ) throws -> CalibrationRefinementResult {
    guard choosingFocal else {
      return try CalibrationRefinement.refine(
        cameras: cameras, points: evidence.points, observations: evidence.observations, options: refine)
    }
    return try CalibrationRefinement.refineChoosingFocal(
      cameras: cameras, points: evidence.points, observations: evidence.observations, options: refine
    ).result
  }

  /// The time analysis of `motion` (venue coordinates), when asked for. Without `[venue]`, a ball whose
  /// bounces do not fit the table at the assumed place gets a warning and no events: events found at a
  /// table that is not there would be invented.
  func analyse(
    _ motion: MotionModel, sport: SportSpec, venue: VenueFrame, cameras: [Camera], resolved: ResolvedOptions, folder: URL,
    diagnostics: inout DiagnosticLog, clockRefinements: inout [String: Double], flightRefit: AsynchronousFlightFit? = nil
  ) throws -> (MotionModel, [MatchEvent]) {
    guard options.analysis else { return (motion, []) }
    let table = try sport.tableGeometry()
    var analysisOptions = options.analysisOptions
    if let flightRefit {
      let (fit, corrections) = refiningClocks(
        flightRefit, motion: motion, sport: sport, table: table, segmentation: analysisOptions.segmentation, folder: folder,
        diagnostics: &diagnostics)
      clockRefinements = corrections
      analysisOptions.flightsRefit = { fit.refit($0) }
    }
    if analysisOptions.softBones == nil, resolved.softBones.value {
      analysisOptions.softBones = SoftBoneLengths(metresPerPixel: PixelScale.metresPerPixel(cameras: cameras, worldFromVenue: venue.worldFromVenue))
    }
    var analyzer = MatchAnalyzer(table: table, ball: sport.ballModel, ballRadius: sport.ball.radius, options: analysisOptions)
    var analysed = analyzer.run(motion)
    if let table, venue.source == .assumed, let problem = TablePlacementCheck(table: table).problem(with: analysed) {
      diagnostics.append(Diagnostic(.warning, InputError(
        file: folder.appendingPathComponent("match.toml").path, location: .key("venue"),
        "\(problem); bounces, hits, net and the score were skipped. Run `matchscene locate-venue <output>` and paste the [venue] "
          + "table it prints into match.toml (the calibration's world is taken as the venue: z up, the table's "
          + "centre at the origin, its length along x)")))
      analyzer.table = nil
      analysed = analyzer.run(motion)
    }
    if table == nil {
      diagnostics.append(Diagnostic(.note, InputError(
        file: "sports/\(sport.id).toml", location: .key("venue.kind"),
        "\(sport.name) has no table: bounces, hits, net and points are found for table tennis only and were "
          + "skipped; rallies run from the ball starting to move to its coming to rest (ball_at_rest) or being lost; "
          + "players smoothed with \(analysisOptions.softBones == nil ? "constant" : "soft (weighted)") bone lengths, "
          + "ball flights fitted with the sport's ball")))
    }
    if let drag = analysed.drag, drag.flights > 0 {
      diagnostics.append(Diagnostic(.note, InputError(
        file: "sports/\(sport.id).toml", location: .key("ball.drag_coefficient"),
        String(format: "ball drag estimated from %d flights: k = %.4f ± %.4f 1/m (the sport file's %.4f, its prior)", drag.flights,
          drag.drag, drag.uncertainty, drag.prior))))
    }
    return (analysed.motion, analysed.events)
  }

  /// The leave-one-out error as the run triangulates people: in noise units with the run's scales,
  /// else with the fixed pixel gate.
  func leaveOneOut(_ reconstructed: ReconstructionResult, options: PipelineOptions, sampling: AllViewsReprojection) -> LeaveOneOutReprojection {
    let reconstruction = options.reconstruction
    guard let scales = reconstructed.noiseScalesPx, let scaled = reconstruction.noiseGatedTriangulation else {
      return LeaveOneOutReprojection(sampling: sampling, options: reconstruction.triangulation)
    }
    return LeaveOneOutReprojection(sampling: sampling, options: scaled, noiseScalesPx: scales)
  }

  /// Most frames one run takes (about 46 h at 60 fps): a range wider than this is a mistake in the input.
  public static let maxFrames = 10_000_000

  /// The frames to process: `requested` (a `--frames` range) within the frames the cameras cover, else
  /// the frames every camera covers.
  /// - Throws: `InputError` when there are no detections, the cameras' frames do not overlap, the
  ///   requested range misses the data, or the range is wider than `maxFrames`.
  static func frames(_ requested: ClosedRange<Int>?, loaded: LoadedMatch, folder: URL) throws -> ClosedRange<Int> {
    guard let covered = loaded.match.frameRange else {
      throw InputError(file: folder.path, "no detections found in any camera")
    }
    let text = { (r: ClosedRange<Int>) in "\(r.lowerBound)–\(r.upperBound)" }
    if let requested {
      guard requested.overlaps(covered) else {
        throw InputError(
          file: "frames option", "\(text(requested)) holds no detections; the cameras cover match frames \(text(covered))")
      }
      let range = requested.clamped(to: covered)
      guard range.count <= maxFrames else {
        throw InputError(file: "frames option", "\(range.count) frames; at most \(maxFrames) in one run")
      }
      return range
    }
    guard let common = loaded.commonFrames else {
      let list = loaded.cameraFrames.sorted { $0.key < $1.key }.map { "\($0.key) \(text($0.value))" }.joined(separator: ", ")
      throw InputError(
        file: folder.path,
        "the cameras' frames do not overlap (\(list)): no frame is seen by all; set [frame_offsets] in match.toml, "
          + "or choose frames with --frames")
    }
    guard common.count <= maxFrames else {
      throw InputError(file: folder.path, "the cameras cover \(common.count) frames together; at most \(maxFrames) in one run (use --frames)")
    }
    return common
  }

  /// The report's per-camera calibration figures.
  static func calibrationFigures(
    _ check: CalibrationSelfCheckResult, refinement: CalibrationRefinementResult?
  ) -> [ReconstructionReport.CameraCalibrationFigures] {
    check.cameras.map { c in
      var figures = ReconstructionReport.CameraCalibrationFigures(
        name: c.name, observations: c.observationCount, medianPx: c.medianPx, rmsPx: c.rmsPx,
        noiseScalePx: c.noiseScalePx, biasPx: [c.biasPx.x, c.biasPx.y], flagged: c.flagged)
      if let correction = refinement?.corrections.first(where: { $0.camera.name == c.name }) {
        figures.rotationChangeDegrees = correction.rotationChangeDegrees
        figures.positionChangeMetres = correction.positionChangeMetres
        figures.focalChangePx = correction.focalChangePx
        figures.refinedMedianPx = correction.after.medianPx
      }
      return figures
    }
  }
}
