import Foundation
import MatchSceneAssets
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

extension MatchPipeline {
  /// Estimates the cameras' clocks from the detections (`CameraSync`, against the first calibrated
  /// camera with detections) and uses them, unless `match.toml` gives `[frame_offsets]` (an override:
  /// then nothing is estimated) or `options.estimateSync` is off.
  ///
  /// What a user expects from a rig that may not be genlocked: nothing changes for cameras that agree
  /// with the reference; a camera clearly off is named in a warning and shifted. Precisely: whole-frame
  /// offsets are used when decisive (`CameraSyncEstimate.decisive`); phases are used for every camera once
  /// any camera is off by whole frames (the rig is evidently free-running), else only for a camera off
  /// by at least a quarter frame and four standard deviations. Every estimate is a note and goes to
  /// `report.json` (`sync`). The frame range every camera covers is recomputed with the new offsets.
  /// - Returns: the report's figures, nil when nothing was estimated.
  func synchronise(
    _ loaded: inout LoadedMatch, folder: URL, diagnostics: inout DiagnosticLog
  ) throws -> [ReconstructionReport.CameraSyncFigures]? {
    guard options.estimateSync, loaded.match.frameOffsets.isEmpty, loaded.match.cameras.count >= 2,
      let reference = loaded.match.cameras.firstIndex(where: { loaded.match.detections[$0.name] != nil })
    else { return nil }
    let match = loaded.match
    let estimates = try CameraSync(options: options.syncOptions).estimate(match, reference: reference)
    guard !estimates.isEmpty else { return nil }
    let shifted = estimates.filter { $0.decisive && $0.frames != 0 }
    let freeRunning = !shifted.isEmpty
    var wholeFrames = estimates.filter(\.decisive)
    var phases = Set<String>()
    for e in estimates where e.decisive {
      // On a free-running rig even a small phase counts: a ball at 8 m/s moves 4 mm in 0.03 frame at
      // 60 fps, three times the ball's median error when synchronised.
      if freeRunning ? e.phase != 0 : abs(e.phase) >= 0.25 && abs(e.phase) > 4 * e.uncertaintyFrames {
        phases.insert(e.camera)
      }
    }
    if shifted.isEmpty && phases.isEmpty { wholeFrames = [] }
    let fps = match.fps
    let calibration = options.calibrationLabel(folder)
    for e in estimates {
      let applied = wholeFrames.contains(where: { $0.camera == e.camera })
      let text = String(
        format: "%@ runs %+.2f ± %.2f frames (%+.3f s) from %@, by the detections (%d ball and person pairs)",
        e.camera, e.offset, e.uncertaintyFrames, e.offset / fps, e.reference, e.pairs)
      if applied && (e.frames != 0 || phases.contains(e.camera)) {
        let used = phases.contains(e.camera) ? "its frames are shifted by \(e.frames) and its detections resampled at phase \(String(format: "%+.2f", e.phase))" : "its frames are shifted by \(e.frames)"
        diagnostics.append(Diagnostic(.warning, InputError(
          file: calibration, location: .key(e.camera),
          "\(text): the cameras are not synchronised; \(used). Set [frame_offsets] in match.toml to override, or --no-estimate-sync")))
      } else {
        let why = e.decisive ? "consistent with no offset" : "not decisive, not used"
        diagnostics.append(Diagnostic(.note, InputError(file: calibration, location: .key(e.camera), "\(text); \(why)")))
      }
    }
    guard !wholeFrames.isEmpty else {
      return estimates.map { .init(estimate: $0, appliedFrames: false, appliedPhase: false) }
    }
    loaded.match = CameraSync.applying(wholeFrames, to: match, phases: phases)
    // The frames each camera covers, with the new offsets.
    var ranges: [ClosedRange<Int>] = []
    for (name, frames) in loaded.cameraFrames {
      let shift = (loaded.match.frameOffsets[name] ?? 0) - (match.frameOffsets[name] ?? 0)
      let moved = (frames.lowerBound - shift)...(frames.upperBound - shift)
      loaded.cameraFrames[name] = moved
      ranges.append(moved)
    }
    if let lo = ranges.map(\.lowerBound).max(), let hi = ranges.map(\.upperBound).min() {
      loaded.commonFrames = lo <= hi ? lo...hi : nil
    }
    return estimates.map { e in
      .init(
        estimate: e, appliedFrames: wholeFrames.contains(where: { $0.camera == e.camera }),
        appliedPhase: phases.contains(e.camera))
    }
  }
}

extension MatchPipeline {
  /// `synchronise(_:folder:diagnostics:)`, and, when it resampled any camera at a phase, every camera's
  /// ball candidates as read (by its own frames) with the phases used: the evidence of
  /// `AsynchronousFlightFit`, which fits the ball's flights at each camera's own instants. Nil otherwise
  /// (a synchronised rig keeps its path unchanged).
  func synchronisedKeepingBalls(
    _ loaded: inout LoadedMatch, folder: URL, diagnostics: inout DiagnosticLog
  ) throws -> (figures: [ReconstructionReport.CameraSyncFigures]?, balls: (balls: [String: [Int: [BallDetection2D]]], phases: [String: Double])?) {
    let before = loaded.match.detections
    let figures = try synchronise(&loaded, folder: folder, diagnostics: &diagnostics)
    let phased = (figures ?? []).filter(\.appliedPhase)
    guard !phased.isEmpty else { return (figures, nil) }
    let phases = Dictionary(phased.map { ($0.estimate.camera, $0.estimate.phase) }, uniquingKeysWith: { a, _ in a })
    return (figures, (before.mapValues(\.balls), phases))
  }
}

extension MatchPipeline {
  /// `fit` with the clocks of the cameras it resampled at a phase refined on the ball's flights
  /// (`AsynchronousFlightFit.refiningClocks`, the flights segmented from `motion`'s ball in venue
  /// coordinates as the analysis will); each correction is a note, and is returned by camera name
  /// (frames, the camera's instants later by that much).
  func refiningClocks(
    _ fit: AsynchronousFlightFit, motion: MotionModel, sport: SportSpec, table: TableGeometry?,
    segmentation: FlightSegmentationOptions, folder: URL, diagnostics: inout DiagnosticLog
  ) -> (AsynchronousFlightFit, [String: Double]) {
    let (out, corrections) = fit.refiningClocks(
      on: motion, model: sport.ballModel, surfaces: BallSurfaces(ballRadius: sport.ball.radius, table: table),
      segmentation: segmentation)
    for (camera, frames) in corrections.sorted(by: { $0.key < $1.key }) {
      diagnostics.append(Diagnostic(.note, InputError(
        file: options.calibrationLabel(folder), location: .key(camera),
        String(format: "%@'s clock refined on the ball's flights by %+.4f frames (its instants later by that much)", camera, frames))))
    }
    return (out, corrections)
  }
}
