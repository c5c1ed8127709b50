import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction
import MatchSceneEvaluation

/// `matchscene evaluate <out> --truth <truth>`: 3D error of a reconstruction against ground truth.
struct Evaluate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare reconstructed tracks with ground truth (e.g. from `matchscene simulate`).")

  @Argument(help: "tracks.csv, or a folder holding it.")
  var estimate: String

  @Option(help: "The true tracks.csv, or a folder holding it (simulate writes <match>/truth/).")
  var truth: String

  @Option(help: "Also write the figures as JSON to this file.")
  var json: String?

  @Flag(help: "Replace an existing --json file that is not an evaluation MatchScene wrote (never one of the inputs).")
  var force = false

  @Option(help: "The match folder: also evaluate the plain-DLT baseline given the true association, side by side.")
  var baseline: String?

  static func tracksFile(_ path: String) -> URL {
    MatchOutput.tracksFile(URL(fileURLWithPath: path))
  }

  /// What the run reads, which --json never overwrites: both tracks files and the events beside them, the
  /// truth's folder when --truth names one (`<match>/truth`) and the --baseline match folder.
  var inputs: [URL] {
    let files = [Self.tracksFile(estimate), Self.tracksFile(truth)]
    let truthFolder = files[1].path == URL(fileURLWithPath: truth).path ? nil : URL(fileURLWithPath: truth)
    return files + files.compactMap(MatchOutput.eventsBeside) + [truthFolder].compactMap { $0 }
      + [baseline].compactMap { $0.map { URL(fileURLWithPath: $0) } }
  }

  func run() throws {
    if let json { try OutputFile.check(URL(fileURLWithPath: json), option: "--json", force: force, inputs: inputs, isOurs: EvaluationReport.isReport) }
    let estimated = try MatchOutput.readMotion(tracks: URL(fileURLWithPath: estimate))
    let reference = try MatchOutput.readMotion(tracks: URL(fileURLWithPath: truth))
    let evaluation = TrackEvaluation(estimate: estimated, truth: reference)
    print(evaluation.summary)
    // Events, when both sides have them next to their tracks.
    let estimatedEvents = MatchOutput.eventsBeside(Self.tracksFile(estimate))
    let trueEvents = MatchOutput.eventsBeside(Self.tracksFile(truth))
    var events: EventEvaluation?
    var ballPlay: BallPlayEvaluation?
    if let trueEvents {
      ballPlay = BallPlayEvaluation(estimate: estimated, truth: reference, trueEvents: try EventsJSON.read(from: trueEvents))
      print(ballPlay!.summary)
    }
    if let estimatedEvents, let trueEvents {
      events = EventEvaluation(
        detected: try EventsJSON.read(from: estimatedEvents), truth: try EventsJSON.read(from: trueEvents),
        trackMap: evaluation.playerMatches,
        visibleFrames: Set(BallPlayEvaluation.ballSamples(reference).filter { $0.views >= 2 }.map(\.frame)))
      print(events!.summary)
    }
    // Spin, when the truth is a simulated match's (`truth/ball.json` beside its tracks).
    var ballSpin: BallSpinEvaluation?
    if let estimatedEvents, let ballTruth = try BallSpinEvaluation.readTruth(Self.tracksFile(truth).deletingLastPathComponent()) {
      let seen = Set(BallPlayEvaluation.ballSamples(reference).filter { $0.views >= 2 }.map(\.frame))
      ballSpin = BallSpinEvaluation(
        detected: try EventsJSON.read(from: estimatedEvents), truth: ballTruth, seen: (frames: seen, fps: reference.fps))
      print(ballSpin!.summary)
    }
    var baselineEvaluation: TrackEvaluation?
    if let baseline {
      let loaded = try MatchFolder.load(URL(fileURLWithPath: baseline))
      if let frames = reference.frames {
        let oracle = try OracleBaseline.reconstruct(loaded.match, truth: reference, frames: frames)
        baselineEvaluation = TrackEvaluation(estimate: oracle, truth: reference)
        print("\nplain DLT given the true association (baseline):")
        print(baselineEvaluation!.summary)
      }
    }
    if let json {
      var report = EvaluationReport(tracks: evaluation, ballPlay: ballPlay, events: events, baseline: baselineEvaluation)
      report.ballSpin = ballSpin
      try OutputFile.write(
        try report.jsonData(), to: URL(fileURLWithPath: json), option: "--json", force: force, inputs: inputs, isOurs: EvaluationReport.isReport)
    }
  }
}
