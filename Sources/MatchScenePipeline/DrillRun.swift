import Foundation
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO

/// `matchscene drill`: scores a `reconstruct` output folder (tracks.csv, report.json) against a drill
/// and writes `drill.json` beside them.
public enum DrillRun {
  /// The drill's result on the recording in `outputFolder`, the ball's touches being the bounces of
  /// its events.json. The skeleton is the one whose keypoints cover tracks.csv's joint names
  /// (`Skeleton.covering`).
  /// - Throws: `InputError` naming tracks.csv or report.json.
  public static func score(_ drill: Drill, outputFolder: URL) throws -> DrillResult {
    let tracks = outputFolder.appendingPathComponent("tracks.csv")
    guard FileManager.default.fileExists(atPath: tracks.path) else {
      throw InputError(file: tracks.path, "not found: expected the output folder of `matchscene reconstruct`")
    }
    let report = try OutputReport.read(folder: outputFolder)
    let rows = try TracksCSV.read(from: tracks)
    let names = Set(rows.filter { $0.kind != .ball }.map(\.joint))
    guard let skeleton = Skeleton.covering(jointNames: names) else {
      throw InputError(file: tracks.path, "no built-in skeleton has the joints \(names.sorted().prefix(8).joined(separator: ", "))…")
    }
    let motion = MotionModel(points: rows, fps: report.fps, skeleton: skeleton)
    if let track = drill.track, motion.track(track) == nil {
      let known = motion.tracks.filter { $0.kind != .ball }.map(\.id)
      throw InputError(
        file: tracks.path, "the drill's track \(track.debugDescription) is not in this file (tracks: \(known.joined(separator: ", ")))")
    }
    if let start = drill.start, let frames = motion.frames {
      let end = motion.time(frames.upperBound)
      guard start <= end else {
        throw InputError(
          file: tracks.path,
          "the drill starts at \(start) s, after the recording ends (\(String(format: "%.2f", end)) s); expected a start within the recording")
      }
    }
    let eventsURL = outputFolder.appendingPathComponent("events.json")
    let events = FileManager.default.fileExists(atPath: eventsURL.path) ? try EventsJSON.read(from: eventsURL) : []
    return DrillScorer.score(drill, motion: motion, venue: report.venue, events: events)
  }

  /// Writes `result` as `folder/drill.json` (pretty, sorted keys), atomically.
  @discardableResult
  public static func write(_ result: DrillResult, to folder: URL) throws -> URL {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let url = folder.appendingPathComponent("drill.json")
    try AtomicFile.write(try encoder.encode(result), to: url)
    return url
  }
}
