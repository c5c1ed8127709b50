import Foundation
import MatchSceneCore

/// The match's events as JSON: `{"events": [{"type": "bounce", "frame": 12, "time": 0.2, …}, …]}`.
public enum EventsJSON {
  struct File: Codable { var events: [MatchEvent] }

  public static func data(_ events: [MatchEvent]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(File(events: events))
  }

  public static func write(_ events: [MatchEvent], to url: URL) throws {
    try AtomicFile.write(data(events), to: url)
  }

  public static func read(from url: URL) throws -> [MatchEvent] {
    guard let data = FileManager.default.contents(atPath: url.path) else { throw InputError(file: url.path, "cannot read the file") }
    do {
      return try JSONDecoder().decode(File.self, from: data).events
    } catch {
      throw InputError(file: url.path, "not an events file ({\"events\": [...]}): \(error)")
    }
  }
}
