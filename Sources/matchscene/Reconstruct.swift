import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import MatchSceneReconstruction

/// `matchscene reconstruct <match> -o <out>`: 2D detections → tracks.csv + scene.glb.
struct Reconstruct: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Triangulate a match's 2D detections into 3D tracks (tracks.csv) and an animated scene (scene.glb).")

  @OptionGroup var input: MatchInputOptions

  @Option(name: .shortAndLong, help: "Output folder (created if missing; existing files of the same name are replaced).")
  var output: String

  @Option(help: "Only these match frames, e.g. 100-400.")
  var frames: FrameRange?

  @Flag(help: "Plain confidence-weighted DLT: no view rejection, no refinement (a baseline).")
  var plain = false

  @Flag(help: "Write tracks.csv only, no scene.glb.")
  var noScene = false

  @Option(help: "Scene format: glb (default), gltf (+ .bin), fbx (ASCII), dae, obj (static) — the last three through assimp.")
  var format: SceneFormat = .glb

  @Flag(help: "Skip the time analysis: write the per-frame triangulation as it is (no smoothing, bone lengths, ball physics or events).")
  var noAnalysis = false

  @Option(help: "Smoothing of player joints: \(SmoothingMethod.allCases.map(\.rawValue).joined(separator: ", ")).")
  var smoothing: SmoothingMethod = .butterworth

  @Option(help: "Butterworth cutoff frequency, Hz (zero-phase, order 4).")
  var cutoff: Double = 10

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

  func validate() throws {
    guard cutoff > 0 else { throw ValidationError("--cutoff must be positive") }
    guard maxGap >= 0 else { throw ValidationError("--max-gap must not be negative") }
    guard ballTrail.isFinite, ballTrail >= 0 else { throw ValidationError("--ball-trail must not be negative") }
  }

  func run() throws {
    let loaded = try input.load()
    let match = loaded.match
    var options = ReconstructionOptions()
    if plain { options.triangulation = .init() }
    let range = frames?.range ?? loaded.commonFrames ?? match.frameRange
    guard let range else { throw CommandFailure("\(input.match): no detections found in any camera") }
    let progress = ProgressReporter("reconstruct", total: range.count)
    let result = try Reconstructor(match: match, options: options).run(frames: range) { progress.update($0) }
    progress.finish()
    let sport = try SportSpec.builtIn(match.sport)
    var reconstruction = result.reconstruction
    var events: [MatchEvent] = []
    if !noAnalysis {
      var analysis = AnalysisOptions()
      analysis.smoothing.method = smoothing
      analysis.smoothing.cutoff = cutoff
      analysis.smoothing.maxGap = maxGap
      let table = try sport.tableGeometry()
      let analysed = MatchAnalyzer(table: table, ball: sport.ballModel, ballRadius: sport.ball.radius, options: analysis)
        .run(reconstruction)
      reconstruction = analysed.reconstruction
      events = analysed.events
      if table == nil {
        Console.error(
          "note: \(sport.name) has no table: events (bounces, hits, net, rallies) are found for table tennis only and "
            + "were skipped; players smoothed with constant bone lengths, ball flights fitted with the ball of sports/\(sport.id).toml.")
      }
    }
    let out = URL(fileURLWithPath: output)
    let tracksURL = out.appendingPathComponent("tracks.csv")
    try TracksCSV.write(reconstruction.points, to: tracksURL)
    var written = [tracksURL.path]
    var notes: [String: String] = [:]
    var exportSeconds: Double?
    // One TRC per player for OpenSim users (y up, as Pose2Sim writes them).
    written += try TRCWriter.writeAll(reconstruction, to: out.appendingPathComponent("trc")).map(\.path)
    if var report = result.report {
      report.warnings = loaded.diagnostics.map(\.description)
      let reportURL = out.appendingPathComponent("report.json")
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try AtomicFile.write(try encoder.encode(report), to: reportURL)
      written.append(reportURL.path)
    }
    if !noAnalysis {
      let eventsURL = out.appendingPathComponent("events.json")
      try EventsJSON.write(events, to: eventsURL)
      written.append(eventsURL.path)
    }
    if !noScene {
      let scores = Scoreboard.compute(events, sides: Scoreboard.sides(of: reconstruction))
      var options = try SceneExport.options(events: events, scores: scores, frames: reconstruction.frameRange)
      options.ballTrail = ballTrail
      options.keyframeTolerance = keyframeTolerance.metres
      let started = Date()
      let sceneURL = try SceneExport.write(
        reconstruction, cameras: match.cameras, sport: sport, worldUp: match.worldUp, options: options, format: format,
        floatRotations: floatRotations, to: out)
      written.append(sceneURL.path)
      notes[sceneURL.path] = SceneExport.sizeAndTime(of: sceneURL, since: started)
      exportSeconds = Date().timeIntervalSince(started)
    }
    let ids = reconstruction.trackIDs
    print(
      String(
        format: "Reconstructed %d frames in %.1f s (%.0f frames/s): %d player track(s) [%@], ball in %d frames.",
        range.count, result.seconds, Double(range.count) / max(result.seconds, 1e-9),
        ids.filter { $0.kind == .player }.count, ids.filter { $0.kind == .player }.map(\.id).joined(separator: ", "),
        Set(reconstruction.points.filter { $0.kind == .ball }.map(\.frame)).count))
    if let exportSeconds {
      // Both figures of the "export within 25 % of the reconstruction" target, measured in this run.
      print(
        String(
          format: "Scene export took %.1f s, %.0f %% of the reconstruction's %.1f s.", exportSeconds,
          100 * exportSeconds / max(result.seconds, 1e-9), result.seconds))
    }
    if !noAnalysis {
      let count = { (type: MatchEvent.Kind) in events.filter { $0.type == type }.count }
      print("Events: \(count(.rallyStart)) rallies, \(count(.hit)) hits, \(count(.bounce)) bounces, \(count(.net)) net.")
    }
    for path in written { print("wrote \(path)\(notes[path].map { " \($0)" } ?? "")") }
  }
}

/// A closed frame range written `A-B` (or a single frame `A`).
struct FrameRange: ExpressibleByArgument {
  var range: ClosedRange<Int>
  init?(argument: String) {
    let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    if parts.count == 1, let a = parts[0] { range = a...a; return }
    guard parts.count == 2, let a = parts[0], let b = parts[1], a <= b else { return nil }
    range = a...b
  }
}
