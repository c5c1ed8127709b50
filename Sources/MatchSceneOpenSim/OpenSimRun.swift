import Foundation
import MatchSceneCore
import MatchSceneIO

/// Options of `OpenSimRun`; the defaults run every player of the folder.
public struct OpenSimOptions: Sendable {
  /// Python interpreter with the `opensim` package (nil: `OpenSimPython.find`'s search).
  public var python: String?
  /// A folder (or file) with the true `tracks.csv` of a simulated match (`simulate`'s `truth/`): its players
  /// go through the same model sizing and inverse kinematics, and the summary gives the angle differences.
  public var truth: URL?
  /// Players to run (nil: every track of kind player).
  public var players: [String]?
  public init() {}
}

/// `matchscene opensim OUT`: for each player of an output folder, OpenSim (through its Python package) sizes a
/// model to the player's markers and runs inverse kinematics (Delp et al. 2007; Seth et al., "OpenSim:
/// Simulating musculoskeletal dynamics and neuromuscular control to study human and animal movement", PLoS
/// Comput Biol 2018). Writes `OUT/opensim/`:
/// - `<player>/<player>.trc`: the markers (the skeleton's keypoint names) in OpenSim's frame, the player facing
///   +x (`OpenSimFrame`), rows always complete (empty cells where missing);
/// - `<player>/<player>.osim`, `.mot`, `_marker_errors.sto`, `_result.json` (`opensim_ik.py`);
/// - `truth/<player>/…` the same for `--truth`'s markers (turned by the reconstruction's facing);
/// - `summary.json` (`OpenSimSummary`).
/// The folder `opensim/` is built aside and replaced as a whole on each run (`OutputFolder.replace`); one
/// MatchScene did not write is refused.
public enum OpenSimRun {
  /// The folder's name inside the output.
  public static let folderName = "opensim"
  /// The bundled OpenSim script.
  public static var scriptURL: URL? { Bundle.module.url(forResource: "opensim_ik", withExtension: "py") }
  /// Pose2Sim 0.10.49's `Markers_Coco17.xml` with its right hip corrected (see the file's header).
  public static var correctedCoco17MarkersURL: URL? { Bundle.module.url(forResource: "Markers_Coco17", withExtension: "xml") }

  /// Runs the step on `folder` (an output of `matchscene reconstruct`).
  /// - Throws: `InputError` when the folder cannot be read, `opensim/` is not MatchScene's, the folder has no
  ///   player, OpenSim's Python package is missing (with how to install it) or the script fails as a whole.
  ///   A player OpenSim cannot process is reported in the summary with its error, not thrown.
  public static func run(output folder: URL, options: OpenSimOptions = OpenSimOptions()) throws -> OpenSimSummary {
    let started = Date()
    let output = try MatchOutput.open(folder)
    let motion = try output.motion(kinds: [.player])
    let chosen = motion.tracks.filter { options.players?.contains($0.id) ?? true }
    guard !chosen.isEmpty else {
      throw InputError(file: output.url(.tracks).path, options.players == nil ? "no player track" : "none of the players \(options.players!.joined(separator: ", "))")
    }
    let python = try OpenSimPython.find(given: options.python)
    try OutputFolder.record([folderName], in: folder)
    var summary: OpenSimSummary?
    // Built aside and swapped in whole (`OutputFolder.replace`): a failed run leaves the previous
    // `opensim/`, and a folder MatchScene did not write is refused before any work.
    try OutputFolder.replace(folder.appendingPathComponent(folderName), marker: "matchscene opensim") { staging in
      summary = try run(chosen, motion: motion, output: output, python: python, options: options, into: staging, started: started)
    }
    return summary!
  }

  /// The work of `run(output:options:)`, written into `destination` (the staging folder).
  static func run(
    _ chosen: [MotionTrack], motion: MotionModel, output: MatchOutput, python: OpenSimPython, options: OpenSimOptions,
    into destination: URL, started: Date
  ) throws -> OpenSimSummary {
    let markers = MarkerSet(skeleton: motion.skeleton, naming: .keypoints)
    var job: [[String: String]] = []
    var frames: [String: OpenSimFrame] = [:]
    for track in chosen {
      let frame = OpenSimFrame.facing(track, skeleton: motion.skeleton, venue: output.venue)
      frames[track.id] = frame
      job.append(try writeTrial(track, motion: motion, markers: markers, frame: frame, into: destination))
    }
    var truthIDs: [String] = []
    if let truthURL = options.truth {
      let truth = try MatchOutput.readMotion(tracks: truthURL)
      let truthMarkers = MarkerSet(skeleton: truth.skeleton, naming: .keypoints)
      for track in truth.tracks where track.kind == .player {
        guard let frame = frames[track.id] else { continue }
        job.append(try writeTrial(
          track, motion: truth, markers: truthMarkers, frame: frame, into: destination.appendingPathComponent("truth")))
        truthIDs.append(track.id)
      }
    }
    let jobURL = destination.appendingPathComponent("job.json")
    let jobData = try JSONSerialization.data(withJSONObject: ["players": job], options: [.sortedKeys, .prettyPrinted])
    try AtomicFile.write(jobData, to: jobURL)
    try python.runIK(job: jobURL)

    let players = chosen.map { track in
      readResult(track.id, in: destination.appendingPathComponent(FileName.safe(track.id)), facing: frames[track.id]!.facingDegrees)
    }
    var truthDifferences: [String: [String: OpenSimSummary.Difference]]?
    if options.truth != nil {
      var all: [String: [String: OpenSimSummary.Difference]] = [:]
      for id in truthIDs {
        let name = FileName.safe(id)
        let mine = destination.appendingPathComponent("\(name)/\(name).mot")
        let true_ = destination.appendingPathComponent("truth/\(name)/\(name).mot")
        if let a = try? MotionFile.read(mine), let b = try? MotionFile.read(true_) { all[id] = MotionFile.differences(a, b) }
      }
      truthDifferences = all
    }
    let summary = OpenSimSummary(
      tool: MatchManifest.currentTool, opensimVersion: python.version, python: python.executable.path,
      skeleton: motion.skeleton.name, seconds: Date().timeIntervalSince(started), players: players, truth: truthDifferences)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(summary), to: destination.appendingPathComponent("summary.json"))
    return summary
  }

  /// Writes `<dir>/<id>/<id>.trc` in OpenSim's frame; returns the script's job entry.
  static func writeTrial(
    _ track: MotionTrack, motion: MotionModel, markers: MarkerSet, frame: OpenSimFrame, into dir: URL
  ) throws -> [String: String] {
    let name = FileName.safe(track.id)
    let playerDir = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: playerDir, withIntermediateDirectories: true)
    let trc = playerDir.appendingPathComponent("\(name).trc")
    let text = TRCWriter.render(track, markers: markers, fps: motion.fps, fileName: trc.lastPathComponent, axis: motion.axis, place: frame.openSim)
    try AtomicFile.write(text, to: trc)
    return ["id": name, "trc": trc.path, "dir": playerDir.path]
  }

  /// The script's `<id>_result.json` as a summary entry (an error entry when it is missing or unreadable).
  static func readResult(_ id: String, in dir: URL, facing: Double) -> OpenSimSummary.Player {
    let name = FileName.safe(id)
    var player = OpenSimSummary.Player(id: id, facingDegrees: facing, files: ["\(name)/\(name).trc"])
    let url = dir.appendingPathComponent("\(name)_result.json")
    guard let data = FileManager.default.contents(atPath: url.path),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      player.error = "OpenSim wrote no result (\(url.lastPathComponent))"
      return player
    }
    if let error = json["error"] as? String { player.error = error; return player }
    player.frames = json["frames"] as? Int
    player.markerRMS_m = json["markerRMS_m"] as? Double
    player.markerRMSByMarker_m = json["markerRMSByMarker_m"] as? [String: Double]
    player.segmentLengths_m = json["segmentLengths_m"] as? [String: Double]
    player.estimatedLengths = (json["estimatedLengths"] as? [String]).flatMap { $0.isEmpty ? nil : $0 }
    player.files += ["\(name)/\(name).osim", "\(name)/\(name).mot", "\(name)/\(name)_marker_errors.sto"]
    return player
  }
}
