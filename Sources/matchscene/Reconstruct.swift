import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneAssimp
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import MatchScenePipeline

/// `matchscene reconstruct <match> -o <out>`: 2D detections → tracks.csv + scene.glb.
struct Reconstruct: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Triangulate a match's 2D detections into 3D tracks (tracks.csv) and an animated scene (scene.glb).")

  @OptionGroup var input: MatchInputOptions

  @Option(
    name: .shortAndLong,
    help: "Output folder, written whole: built beside it and swapped in at the end, so it holds exactly this run's files.")
  var output: String

  @Flag(help: "Replace the output folder even when it holds files MatchScene did not write.")
  var force = false

  @Option(help: "Only these match frames, e.g. 100-400.")
  var frames: FrameRange?

  @Flag(help: "Plain confidence-weighted DLT: no view rejection, no refinement (a baseline).")
  var plain = false

  @Flag(help: "Write tracks.csv only, no scene.glb.")
  var noScene = false

  @Option(help: "Scene format: glb (default), gltf (+ .bin), fbx (binary, by Blender's exporter: needs Blender), fbx-ascii, dae, obj (static) — the last three through assimp.")
  var format: SceneFormat = .glb

  @Flag(help: "Skip the time analysis: write the per-frame triangulation as it is (no smoothing, bone lengths, ball physics or events).")
  var noAnalysis = false

  @Option(help: "Smoothing of player joints: \(SmoothingMethod.allCases.map(\.rawValue).joined(separator: ", ")).")
  var smoothing: SmoothingMethod = .butterworth

  @Option(help: "Butterworth cutoff frequency, Hz (zero-phase, order 4): the highest cutoff each joint's residual analysis may choose, or with --fixed-cutoff the cutoff of every joint.")
  var cutoff: Double = 10

  @Flag(help: "Filter every joint at --cutoff exactly instead of choosing each joint's cutoff from its own data (residual analysis).")
  var fixedCutoff = false

  @Option(help: "Fill gaps up to this long (seconds) by cubic interpolation; longer gaps stay empty.")
  var maxGap: Double = 0.25

  @Option(help: "Draw a trail this many seconds long behind the ball in the scene (fading spheres ball/trail-1…); 0: none.")
  var ballTrail: Double = 0

  @Option(
    help: "Drop scene keyframes that linear interpolation reproduces within this distance: 1mm, 0.5cm, 0.001 (metres); 0 keeps every frame.")
  var keyframeTolerance: LengthArgument = LengthArgument(metres: 0)

  @Flag(
    help: "Write rotations as Float32 instead of normalised 16-bit integers in scene.glb/.gltf, for readers that cannot de-normalise them (assimp 5.2).")
  var floatRotations = false

  @Flag(
    help: "Refine the cameras' poses by a robust bundle adjustment over the reconstructed people, reconstruct again, and write calibration-refined.toml.")
  var refineCalibration = false

  @Flag(help: "Use the calibration as given even when a camera disagrees with the others (by default its pose is corrected from the match for the run; --refine-calibration also writes the correction).")
  var keepCalibration = false

  @Flag(help: "After a refinement of every camera, level the world frame on where standing people's feet rest: the rig and scene tilted and lifted as a whole so that those feet stand on z = 0 (coordinates then leave the calibration's world; by default they stay in it and report.json gives the floor's tilt).")
  var levelOnFloor = false

  @Flag(help: "Keep the world frame of the calibration given (the default; kept for older scripts).")
  var noFloorContact = false

  @Flag(help: "With --refine-calibration, refine focal lengths too (without it they are refined when the data supports it).")
  var refineFocal = false

  @Flag(help: "Keep the detections as given: do not estimate and remove each camera's systematic offset per joint (by default removed when significant).")
  var keepDetectorBias = false

  @Flag(
    help: "Do not estimate the cameras' time offsets from the detections (by default estimated when match.toml has no [frame_offsets], and used when a camera is clearly off).")
  var noEstimateSync = false
  @Option(help: "View selection: weigh each view by 1 / its camera's noise scale (noise) or equally (equal: spreads the error over every camera, as Pose2Sim does). Default: match.toml's view_weights, else noise.")
  var viewWeights: ViewWeights?

  @Flag(help: "Hold bone lengths fixed by moving joints (the behaviour before soft bone lengths), instead of weighing them against each joint's reprojection tolerance.")
  var hardBones = false

  @Option(
    help: "View selection: reject a view whose reprojection error exceeds this many of its camera's noise scale (estimated from the match); 0: the fixed 8 px gate. Default: match.toml's view_gate, else 5.")
  var viewGate: Double?

  @Option(help: "Marker names in trc/ and match.c3d: keypoints (the skeleton's, left_wrist) or pose2sim (LWrist, with the derived Hip and Neck, as Pose2Sim's OpenSim setups expect).")
  var markerNames: MarkerNames = .keypoints

  @Flag(help: "Do not write match.c3d.")
  var noC3d = false

  @Flag(help: "match.c3d labels without the <track>: prefix (clashes between people numbered): for a match of one person.")
  var c3dPlainNames = false

  @Flag(help: "match.c3d in OpenSim's y-up frame (x, z, -y of a z-up world, as trc/) instead of the calibration's world frame.")
  var c3dYUp = false

  @Option(help: "A zones.toml whose zone entries and exits go into events.json (default: the match folder's zones.toml, if any).")
  var zones: String?

  @Option(
    help: "Layout of the tracks table: long (tracks.csv only) or wide (also tracks_wide.csv: one row per frame, x, y, z, error, views per track and joint).")
  var tracksLayout: TracksLayout = .long

  @Option(
    help: "Who keeps the score: automatic (the rallies, by the rules), claims (players' hand-raise claims only), override (automatic, a claim overrides and disagreements are listed in score.json). Default: match.toml's [score] policy, else automatic.")
  var scorePolicy: ScorePolicy?

  @Option(help: "Seconds the non-dominant hand must be held up to claim a point (default: match.toml's [score] claim_hold, else 1).")
  var claimHold: Double?

  @Option(help: "A ball staying within this distance for --rest-hold is at rest (ball_at_rest), e.g. 1cm; default: estimated from the ball track's noise (5 σ, at least 1 cm).")
  var restRadius: LengthArgument?

  @Option(help: "Seconds the ball must stay within the rest radius for a ball_at_rest event.")
  var restHold: Double = 0.3

  func validate() throws {
    guard cutoff.isFinite, cutoff >= PipelineOptions.minimumCutoff else {
      throw ValidationError("--cutoff must be at least \(PipelineOptions.minimumCutoff) Hz, got \(cutoff)")
    }
    guard maxGap.isFinite, maxGap >= 0, maxGap <= 60 else { throw ValidationError("--max-gap must be between 0 and 60 seconds") }
    guard ballTrail.isFinite, ballTrail >= 0, ballTrail <= SceneOptions.maxBallTrail else {
      throw ValidationError("--ball-trail must lie in 0…\(Int(SceneOptions.maxBallTrail)) seconds, got \(ballTrail)")
    }
    if let claimHold, !(claimHold >= 0.2 && claimHold <= 10) { throw ValidationError("--claim-hold must lie in 0.2…10 seconds") }
    guard restHold.isFinite, restHold > 0, restHold <= 60 else { throw ValidationError("--rest-hold must lie in (0, 60] seconds") }
    if let viewGate, !(viewGate >= 0 && viewGate <= 100) { throw ValidationError("--view-gate must be 0 or a number of noise scales up to 100") }
    if let r = restRadius?.metres, !(r > 0 && r <= 1) { throw ValidationError("--rest-radius must lie in (0, 1] m") }
  }

  func run() throws {
    // The whole run is timed, from here (arguments parsed) to the last file written.
    let started = Date()
    var options = PipelineOptions()
    options.input = input.folderOptions
    options.frames = frames?.range
    if plain { options.reconstruction.triangulation = .init() }
    options.analysis = !noAnalysis
    options.analysisOptions.smoothing.method = smoothing
    options.analysisOptions.smoothing.cutoff = cutoff
    options.analysisOptions.smoothing.cutoffFromResiduals = !fixedCutoff
    options.analysisOptions.smoothing.maxGap = maxGap
    options.refineCalibration = refineCalibration || refineFocal
    options.refineFocal = refineFocal
    options.removeDetectorBias = !keepDetectorBias
    options.correctDisagreeingCameras = !keepCalibration
    options.levelOnFloorContacts = levelOnFloor && !noFloorContact
    options.estimateSync = !noEstimateSync
    options.viewGateSigmas = viewGate
    options.softBones = !hardBones
    options.weighViewsByNoise = viewWeights.map { $0 == .noise }
    options.zones = zones.map { URL(fileURLWithPath: $0) }
    options.scorePolicy = scorePolicy
    if let claimHold { options.claims = ClaimOptions(hold: claimHold) }
    options.analysisOptions.ballAtRest = BallRestOptions(radius: restRadius?.metres, hold: restHold)
    var output = OutputOptions()
    output.sceneFormats = noScene ? [] : [format]
    output.ballTrail = ballTrail
    output.keyframeTolerance = keyframeTolerance.metres
    output.floatRotations = floatRotations
    output.force = force
    output.markerNames = markerNames
    output.c3d = !noC3d
    output.c3dLayout = C3DLayout(plainNames: c3dPlainNames, yUp: c3dYUp)
    output.tracksLayout = tracksLayout
    output.inputs = input.inputURLs + [options.zones].compactMap { $0 }

    // A bad -o is reported now, not after the whole reconstruction.
    try MatchResult.checkOutput(URL(fileURLWithPath: self.output), options: output)
    // What --format fbx needs (Blender, NumPy in its Python) is checked now, not after the reconstruction:
    // without it every other output is still written, then the run fails saying what to install.
    var fbxMissing: InputError?
    if output.sceneFormats.contains(.fbx) {
      fbxMissing = BlenderFBX.missingRequirement(for: URL(fileURLWithPath: self.output).appendingPathComponent(SceneFormat.fbx.fileName))
      if let fbxMissing {
        Console.error("warning: \(fbxMissing)\nwarning: scene.fbx will not be written; every other output will be.")
        output.sceneFormats.removeAll { $0 == .fbx }
      }
    }
    let progress = ProgressReporter("reconstruct", total: 1)
    // Warnings as they are found: they often say why a run then fails.
    let pipeline = MatchPipeline(options: options) { Console.error("\($0)") }
    let result = try pipeline.run(URL(fileURLWithPath: input.match)) { _, done, total in
      progress.update(done, of: total)
    }
    progress.finish()
    let writeStarted = Date()
    let written = try result.write(to: URL(fileURLWithPath: self.output), options: output)
    let writeSeconds = Date().timeIntervalSince(writeStarted)
    let total = Date().timeIntervalSince(started)
    print(Self.summary(result, written: written, writeSeconds: writeSeconds, total: total))
    for (url, seconds) in written {
      print("wrote \(url.path)\(seconds.map { " " + SceneExport.sizeAndTime(of: url, seconds: $0) } ?? "")")
    }
    if let fbxMissing { throw fbxMissing }
  }

  /// What the run did, in a few lines: frames, people, the ball, events, and where the time went.
  ///
  /// The time line adds up to the whole run: the pipeline's stages (read, reconstruct, analyse, …),
  /// export (the scene files), write (the rest of the writing: the other output files are written
  /// concurrently with the scene files, so this is what they took beyond the export, and the output
  /// folder swapped in) and other (what lies between: checks, building the result).
  static func summary(
    _ result: MatchResult, written: [(url: URL, seconds: Double?)], writeSeconds: Double, total: Double
  ) -> String {
    let frames = result.motion.frames?.count ?? result.frames.count
    var people = "\(result.playerIDs.count) player(s) [\(result.playerIDs.joined(separator: ", "))]"
    if !result.personIDs.isEmpty { people += ", \(result.personIDs.count) other person(s) [\(result.personIDs.joined(separator: ", "))]" }
    var lines = [
      String(format: "Reconstructed %d frames in %.1f s (%.0f frames/s): ", frames, total, Double(frames) / max(total, 1e-9))
        + people + ", ball in \(result.ballFrames) frames."
    ]
    let export = written.compactMap(\.seconds).reduce(0, +)
    var stages = result.timings + [("export", export), ("write", max(0, writeSeconds - export))]
    stages.append(("other", max(0, total - stages.map(\.seconds).reduce(0, +))))
    if let line = allViewsLine(result) { lines.append(line) }
    if let line = leaveOneOutLine(result) { lines.append(line) }
    let text = stages.map { String(format: "%@ %.2f s", $0.stage, $0.seconds) }
    lines.append("Time: " + text.joined(separator: ", ") + String(format: " (whole run %.2f s).", total))
    if result.analysed {
      let count = { (type: MatchEvent.Kind) in result.events.filter { $0.type == type }.count }
      lines.append(
        "Events: \(count(.rallyStart)) rallies, \(count(.hit)) hits, \(count(.bounce)) bounces, \(count(.net)) net, "
          + "\(count(.point)) points, \(count(.claim)) claims, \(count(.ballAtRest)) ball at rest.")
      if let last = result.scores.last(where: { $0.winner != nil }), let points = last.gamePoints, let games = last.games {
        let ids = points.keys.sorted()
        lines.append(
          "Score (\(result.scoreSettings.policy.rawValue)): games " + ids.map { "\($0) \(games[$0] ?? 0)" }.joined(separator: " : ")
            + ", this game " + ids.map { "\($0) \(points[$0] ?? 0)" }.joined(separator: " : ")
            + (result.disagreements.isEmpty ? "" : "; \(result.disagreements.count) claim(s) disagree with the rallies"))
      }
      let zones = Set(result.events.compactMap { $0.type == .zoneEnter ? $0.zone : nil })
      if !zones.isEmpty { lines.append("Zones: \(count(.zoneEnter)) entries into \(zones.count) zone(s), \(count(.zoneExit)) exits.") }
    }
    return lines.joined(separator: "\n")
  }
}

extension Reconstruct {
  /// The longest person track's median reprojection error per camera over every view where the detector
  /// found it (used or not), and the views used per point; nil without figures.
  static func allViewsLine(_ result: MatchResult) -> String? {
    guard let report = result.report, let track = report.tracks.first(where: { $0.kind != "ball" && $0.allViewsReprojectionPx != nil }),
      let figures = track.allViewsReprojectionPx
    else { return nil }
    let cameras = report.cameras.map { $0.name }.filter { figures[$0] != nil }
    let medians = cameras.map { String(format: "%@ %.1f", $0, figures[$0]!.median) }.joined(separator: ", ")
    let views = track.meanViews.map { String(format: "; %.2f views per point", $0) } ?? ""
    return "Reprojection of \(track.id) over all views where it was detected, median px: \(medians)\(views)."
  }

  /// The same track's leave-one-out error per camera (triangulated from the other cameras), median px.
  static func leaveOneOutLine(_ result: MatchResult) -> String? {
    guard let report = result.report, let track = report.tracks.first(where: { $0.kind != "ball" && $0.allViewsReprojectionPx != nil }),
      let figures = track.leaveOneOutReprojectionPx, !figures.isEmpty
    else { return nil }
    let medians = report.cameras.map(\.name).compactMap { name in figures[name].map { String(format: "%@ %.1f", name, $0.median) } }
    return "Leave-one-out reprojection of \(track.id) (each camera against the others' triangulation), median px: \(medians.joined(separator: ", "))."
  }
}

/// A closed frame range written `A-B` (or a single frame `A`).
struct FrameRange: ExpressibleByArgument {
  var range: ClosedRange<Int>
  init?(argument: String) {
    guard let range = ClosedRange(frames: argument) else { return nil }
    self.range = range
  }
}

extension ScorePolicy: ExpressibleByArgument {}

/// `--view-weights`.
enum ViewWeights: String, ExpressibleByArgument, CaseIterable {
  case noise, equal
}
