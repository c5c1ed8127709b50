import Foundation
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO

extension MatchPipeline {
  /// The zones to watch: `options.zones` when given, else the match folder's `zones.toml` when there is
  /// one, else none.
  /// - Throws: `InputError` naming the zones file and key.
  func zones(folder: URL) throws -> [Zone] {
    if let file = options.zones { return try ZonesTOML.read(from: file) }
    let inFolder = folder.appendingPathComponent("zones.toml")
    return FileManager.default.fileExists(atPath: inFolder.path) ? try ZonesTOML.read(from: inFolder) : []
  }

  /// `events` with the zone events of `motion` (world coordinates) merged in frame order (ties keep
  /// the match's events first).
  static func addingZoneEvents(_ events: [MatchEvent], zones: [Zone], motion: MotionModel, venue: VenueFrame) -> [MatchEvent] {
    guard !zones.isEmpty else { return events }
    let found = ZoneDetector(zones: zones).events(in: motion, venue: venue)
    return (events + found).enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
  }
}
