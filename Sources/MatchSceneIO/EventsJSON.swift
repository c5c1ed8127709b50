import Foundation
import MatchSceneCore

/// The match's events as JSON, pretty-printed with sorted keys:
///
/// ```json
/// {
///   "events" : [
///     { "frame" : 20, "position" : [0.5, 0, 0.78], "rally" : 1, "side" : "positive_x",
///       "surface" : "table", "time" : 0.333, "type" : "bounce" }
///   ]
/// }
/// ```
///
/// Each event has `MatchEvent`'s Codable fields: `type` (`bounce`, `hit`, `net`, `rally_start`,
/// `rally_end`), `frame`, `time`, and optional `track`, `position`, `speed`, `surface`, `side`, `rally`.
public enum EventsJSON {
  struct File: Codable { var events: [MatchEvent] }

  /// The file's bytes.
  public static func data(_ events: [MatchEvent]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(File(events: events))
  }

  /// Writes the events atomically.
  public static func write(_ events: [MatchEvent], to url: URL) throws {
    try AtomicFile.write(data(events), to: url)
  }

  /// Reads an events file.
  /// - Throws: `InputError` naming the file and the key (`events[3].type`) of a wrong or missing
  ///   field, or the line and column of malformed JSON.
  public static func read(from url: URL) throws -> [MatchEvent] {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(data, file: url.path)
  }

  /// Parses events JSON; `file` names it in errors.
  public static func parse(_ data: Data, file: String) throws -> [MatchEvent] {
    if JSONErrors.isBlank(data) { throw InputError(file: file, "empty file; expected {\"events\": [...]}") }
    do {
      return try JSONDecoder().decode(File.self, from: data).events
    } catch let error as DecodingError {
      throw JSONErrors.inputError(error, data: data, file: file) { keyPath in
        switch keyPath {
        case "": "an object {\"events\": [...]}"
        case "events": "an array of events"
        default:
          keyPath.hasSuffix(".type")
            ? "one of \(MatchEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
            : "the MatchEvent fields type, frame, time and optional track, position, speed, surface, side, rally"
        }
      }
    }
  }
}
