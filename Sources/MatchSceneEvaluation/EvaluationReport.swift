import Foundation
import MatchSceneCore

/// What `matchscene evaluate --json` writes: the tracks' errors against the truth, the ball play's and
/// the events' (when the truth has `events.json`), and the plain-DLT baseline given the true
/// association (with `--baseline`). Keys sorted, pretty-printed.
public struct EvaluationReport: Encodable {
  public var tracks: TrackEvaluation
  public var ballPlay: BallPlayEvaluation?
  public var events: EventEvaluation?
  public var baseline: TrackEvaluation?
  /// The flights' spin against `truth/ball.json`, when the truth has it.
  public var ballSpin: BallSpinEvaluation?

  public init(tracks: TrackEvaluation, ballPlay: BallPlayEvaluation? = nil, events: EventEvaluation? = nil, baseline: TrackEvaluation? = nil) {
    self.tracks = tracks
    self.ballPlay = ballPlay
    self.events = events
    self.baseline = baseline
  }

  /// The report as JSON (keys sorted, pretty-printed).
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// Whether `url` holds a report `jsonData()` wrote (a JSON object with `tracks` and no keys but the
  /// report's), which `evaluate --json` may replace.
  public static func isReport(_ url: URL) -> Bool {
    guard let data = FileManager.default.contents(atPath: url.path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return false }
    return object["tracks"] != nil && Set(object.keys).isSubset(of: ["tracks", "ballPlay", "events", "baseline", "ballSpin"])
  }

  /// Writes `jsonData()` to `url` (atomically).
  public func write(to url: URL) throws {
    try AtomicFile.write(try jsonData(), to: url)
  }
}
