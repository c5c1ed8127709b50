import Foundation
import MatchSceneAnalysis
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import MatchSceneReconstruction

/// What `MatchResult.write(to:options:)` writes besides the tracks and the manifest.
public struct OutputOptions: Sendable {
  /// Scene files to write (`scene.glb`, …); empty writes none.
  public var sceneFormats: [SceneFormat] = [.glb]
  /// Rotations as Float32 rather than normalised 16-bit integers in glb/gltf.
  public var floatRotations = false
  /// Seconds of fading ball trail in the scene; 0: none.
  public var ballTrail: Double = 0
  /// Drop scene keyframes that linear interpolation reproduces within this many metres; 0 keeps all.
  public var keyframeTolerance: Double = 0
  /// One TRC file per person for OpenSim (`trc/<track>.trc`).
  public var trc = true
  /// The match's markers as a C3D file (`match.c3d`).
  public var c3d = true
  /// Marker names in the TRC and C3D files: the skeleton's keypoints, or Pose2Sim's (`LWrist`, with the
  /// derived `Hip` and `Neck`).
  public var markerNames: MarkerNames = .keypoints
  /// `match.c3d`'s labels (with or without the `<track>:` prefix) and frame (world or OpenSim's y-up).
  public var c3dLayout = C3DLayout()
  /// Replace a non-empty folder that MatchScene did not write.
  public var force = false
  /// `.wide` also writes `tracks_wide.csv` (one row per frame; `TracksWideCSV`); `tracks.csv` is always
  /// written in the long layout, which MatchScene's own readers take.
  public var tracksLayout: TracksLayout = .long
  /// What the run read (the match folder, a calibration or pose given apart): the output may not be,
  /// hold or lie inside one of them (`OutputFolder.checkInputs`), with or without `force`.
  public var inputs: [URL] = []

  public init() {}
}

extension MatchResult {
  /// Checks before a run, writing nothing, that `write(to:options:)` may put its folder at `folder`
  /// (`OutputFolder.checkDestination`): a bad output path is then reported before the work, not after.
  /// - Throws: `InputError` naming the path in the way and why.
  public static func checkOutput(_ folder: URL, options: OutputOptions = .init()) throws {
    try OutputFolder.checkDestination(folder, force: options.force, command: "matchscene reconstruct", inputs: options.inputs)
  }

  /// Writes the output folder (`MatchOutput`) whole: the tracks, the manifest (`match.json`), `trc/`,
  /// `match.c3d`, the report, the events and score (when the analysis ran) and the scene files, built in a staging folder beside `folder` and swapped in at the
  /// end (`OutputFolder`), so `folder` holds exactly this run's files and a failed or killed run leaves
  /// the previous ones untouched. The writers are independent (each writes its own files whole) and run
  /// concurrently, the scene export first; the files are the same as when written one after another.
  /// - Returns: the files written (paths inside `folder`), in a fixed order, with, for scene files, the
  ///   seconds their export took.
  /// - Throws: `InputError` when `folder` may not be replaced or cannot be written; the writers' errors
  ///   (the first in the order above when several fail).
  @discardableResult
  public func write(to folder: URL, options: OutputOptions = .init()) throws -> [(url: URL, seconds: Double?)] {
    var written: [(name: String, seconds: Double?)] = []
    try OutputFolder.replace(folder, force: options.force, marker: "matchscene reconstruct\n", inputs: options.inputs) { staging in
      let jobs = writers(staging: staging, options: options, inputExcluding: Self.inside(self.folder, [folder, staging]))
      // The longest first (the scene files, then `start` order), so that the others fill the other cores
      // meanwhile and no long writer is left alone at the end (longest processing time first).
      let order = jobs.indices.sorted { (jobs[$0].start, $0) < (jobs[$1].start, $1) }
      let outcomes = try parallelMap(order) { i -> Result<[(name: String, seconds: Double?)], Error> in
        Result { try jobs[i].write() }
      }
      var byJob = Array(repeating: [(name: String, seconds: Double?)](), count: jobs.count)
      var failure: (job: Int, error: Error)?
      for (k, i) in order.enumerated() {
        switch outcomes[k] {
        case .success(let files): byJob[i] = files
        case .failure(let error): if failure == nil || i < failure!.job { failure = (i, error) }
        }
      }
      if let failure { throw failure.error }
      written = byJob.flatMap { $0 }
    }
    return written.map { (folder.appendingPathComponent($0.name), $0.seconds) }
  }

  /// The manifest of this result (`match.json`): its skeleton, frame rate, sport, venue frame, frames, the
  /// settings the run used and `inputHash`.
  public func manifest(inputHash: String?) -> MatchManifest {
    MatchManifest(
      fps: motion.fps, sport: sport.id, skeleton: motion.skeleton, venue: venue, frames: frames, options: settings,
      inputHash: inputHash)
  }

  /// The paths of `folders` relative to `root`, for those inside it.
  static func inside(_ root: URL, _ folders: [URL]) -> [String] {
    let prefix = root.standardizedFileURL.path + "/"
    return folders.map(\.standardizedFileURL.path).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  /// One writer of `write(to:options:)`: the files it writes into the staging folder.
  private struct Writer: Sendable {
    /// When the writer starts among the others, lowest first: by the time it takes on a long match
    /// (600 s, 4 cameras: the scene ~1.3 s, `trc/` ~0.8 s, `views.csv` ~0.6 s, `tracks.csv` ~0.5 s,
    /// `match.c3d` ~0.2 s, the rest a few ms).
    var start = 5
    var write: @Sendable () throws -> [(name: String, seconds: Double?)]
  }

  /// The writers of the output folder, in the order their files are listed.
  private func writers(staging: URL, options: OutputOptions, inputExcluding: [String]) -> [Writer] {
    var jobs: [Writer] = []
    jobs.append(Writer(start: 3) { [self] in
      try MatchOutput.writeTracks(motion, in: staging)
      return [(MatchOutput.File.tracks.rawValue, nil)]
    })
    if options.tracksLayout == .wide {
      jobs.append(Writer { [self] in
        try MatchOutput.writeWideTracks(motion, in: staging)
        return [(MatchOutput.File.tracksWide.rawValue, nil)]
      })
    }
    if options.trc {
      jobs.append(Writer(start: 1) { [self] in
        let folder = MatchOutput.File.trc.rawValue
        let trc = try TRCWriter.writeAll(motion, naming: options.markerNames, to: MatchOutput.url(.trc, in: staging))
        return trc.map { ("\(folder)/\($0.lastPathComponent)", nil) }
      })
    }
    if options.c3d, let frames = motion.frames, !motion.tracks.isEmpty {
      // `match.c3d`; for a sparse match one C3D per run of data (C3D is continuous), at its real frames.
      jobs.append(Writer(start: 4) { [self] in
        guard !motion.axis.isIdentity else {
          try C3DWriter.write(
            motion, naming: options.markerNames, cameras: cameras, playerNames: playerNames, layout: options.c3dLayout,
            to: MatchOutput.url(.c3d, in: staging))
          return [(MatchOutput.File.c3d.rawValue, nil)]
        }
        return try motion.axis.runs(in: frames).map { run in
          let name = MatchOutput.c3dRunName(run.real)
          try C3DWriter.write(
            motion.realRun(run.compact), naming: options.markerNames, cameras: cameras, playerNames: playerNames, layout: options.c3dLayout,
            to: staging.appendingPathComponent(name))
          return (name, nil)
        }
      })
    }
    if let viewsUsed {
      jobs.append(Writer(start: 2) { [self] in
        try viewsUsed.writeCSV(in: staging, skeleton: motion.skeleton)
        return [(MatchOutput.File.views.rawValue, nil)]
      })
    }
    if let report {
      jobs.append(Writer {
        try MatchOutput.writeJSON(report, as: .report, in: staging)
        return [(MatchOutput.File.report.rawValue, nil)]
      })
    }
    // The manifest, with the SHA-256 of the match folder read (this output and its staging left out)
    // when the run did not hash it; none when a file there cannot be read.
    jobs.append(Writer(start: 2) { [self] in
      let hash = inputHash ?? (try? MatchOutput.hash(folder: folder, excluding: inputExcluding, skippingOutputs: true))
      try MatchOutput.writeManifest(manifest(inputHash: hash), in: staging)
      return [(MatchOutput.File.manifest.rawValue, nil)]
    })
    if calibrationRefinement != nil {
      // The cameras the outputs were reconstructed with (corrected by default or by
      // --refine-calibration): `overlay` draws with them, and --calibration takes them next time.
      jobs.append(Writer { [self] in
        try CalibrationTOML.write(cameras, to: MatchOutput.url(.refinedCalibration, in: staging))
        return [(MatchOutput.File.refinedCalibration.rawValue, nil)]
      })
    }
    if analysed {
      jobs.append(Writer { [self] in
        try MatchOutput.writeEvents(events, in: staging)
        let score = ScoreFile(settings: scoreSettings, players: playerNames, points: scores, disagreements: disagreements)
        try MatchOutput.writeJSON(score, as: .score, in: staging)
        return [(MatchOutput.File.events.rawValue, nil), (MatchOutput.File.score.rawValue, nil)]
      })
    }
    // The scene formats one after another in one writer: assimp's exporters share a global logger.
    if !options.sceneFormats.isEmpty {
      jobs.append(Writer(start: 0) { [self] in
        var files: [(name: String, seconds: Double?)] = []
        for format in options.sceneFormats {
          var scene = try SceneExport.options(events: events, scores: scores, frames: motion.frames, axis: motion.axis)
          scene.ballTrail = options.ballTrail
          scene.keyframeTolerance = options.keyframeTolerance
          if !playerNames.isEmpty {
            scene.sceneExtras["players"] = .object(playerNames.mapValues { .string($0) })
          }
          let started = Date()
          let url = try SceneExport.write(
            motion, cameras: cameras, sport: sport, worldUp: worldUp, options: scene, format: format,
            floatRotations: options.floatRotations, to: staging)
          files.append((url.lastPathComponent, Date().timeIntervalSince(started)))
        }
        return files
      })
    }
    return jobs
  }
}
