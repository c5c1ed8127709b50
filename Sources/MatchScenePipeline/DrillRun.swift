import Foundation
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO

/// `matchscene drill`: scores a `reconstruct` output folder (`MatchOutput`) against a drill and writes
/// `drill.json` beside its files.
public enum DrillRun {
  /// The drill's result on the recording in `outputFolder`, the ball's touches being the bounces of
  /// its events, the tracks read in the skeleton the folder records (`MatchOutput`).
  /// - Throws: `InputError` naming the missing or malformed file.
  public static func score(_ drill: Drill, outputFolder: URL) throws -> DrillResult {
    let output = try MatchOutput.open(outputFolder)
    let motion = try output.motion()
    let tracksPath = output.url(.tracks).path
    if let track = drill.track, motion.track(track) == nil {
      let known = motion.tracks.filter { $0.kind != .ball }.map(\.id)
      throw InputError(
        file: tracksPath, "the drill's track \(track.debugDescription) is not in this file (tracks: \(known.joined(separator: ", ")))")
    }
    if let start = drill.start, let frames = motion.frames {
      let end = motion.time(frames.upperBound)
      guard start <= end else {
        throw InputError(
          file: tracksPath,
          "the drill starts at \(start) s, after the recording ends (\(String(format: "%.2f", end)) s); expected a start within the recording")
      }
    }
    return DrillScorer.score(drill, motion: motion, venue: output.venue, events: try output.events())
  }

  /// Writes `result` as the folder's `drill.json` (pretty, sorted keys), atomically.
  @discardableResult
  public static func write(_ result: DrillResult, to folder: URL) throws -> URL {
    try MatchOutput.writeJSON(result, as: .drill, in: folder)
  }
}
