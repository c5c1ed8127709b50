import Foundation
import MatchSceneCore

extension FormInput {
  /// The sports whose players make racket strokes the form analysis finds and scores.
  public static let strokeSports: Set<String> = ["table-tennis", "tennis", "badminton"]

  /// Checks, before any work, that the output in `folder` has something to analyse: at least one
  /// player track, and a sport with strokes.
  /// - Throws: `InputError` naming the file that says so (`tracks.csv`, `match.json`) and what
  ///   `form` needs.
  public func checkAnalysable(_ folder: URL) throws {
    guard !motion.playerTracks.isEmpty else {
      throw InputError(
        file: folder.appendingPathComponent(MatchOutputFile.tracks.rawValue).path,
        "has no player track (kind 'player'); form analyses the players' strokes and needs at least one")
    }
    guard Self.strokeSports.contains(sport) else {
      throw InputError(
        file: folder.appendingPathComponent(MatchOutputFile.manifest.rawValue).path, location: .key("sport"),
        "sport '\(sport)' has no racket strokes; form analyses \(Self.strokeSports.sorted().joined(separator: ", "))")
    }
  }
}
