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
    return DrillScorer.score(drill, motion: try output.motion(), venue: output.venue, events: try output.events())
  }

  /// Writes `result` as the folder's `drill.json` (pretty, sorted keys), atomically.
  @discardableResult
  public static func write(_ result: DrillResult, to folder: URL) throws -> URL {
    try MatchOutput.writeJSON(result, as: .drill, in: folder)
  }
}
