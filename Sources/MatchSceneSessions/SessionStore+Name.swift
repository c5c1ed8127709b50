import Foundation
import GRDB
import MatchSceneCore

extension SessionStore {
  /// What naming a track did.
  public struct NameResult: Sendable {
    /// The name the track had before (nil: unnamed).
    public var previous: String?
    /// The new name's stored proportions (from the other sessions) contradict the track's limb lengths.
    public var disagreement: NameDisagreement?
  }

  /// Gives player `track` of session `id` the name `name` (nil: unnamed), correcting an earlier name, in
  /// one transaction. The session's stored `report.json` is kept as it was added; the store's player
  /// names are what `list`, `show` and `compare` use.
  /// - Throws: `SessionStoreError.noSuchSession`; `InputError` naming the store when the session has no
  ///   player track `track`.
  @discardableResult
  public func name(session id: Int64, track: String, as name: String?, matcher: PlayerMatcher = .init()) throws -> NameResult {
    try mappingErrors {
      try pool.write { db in
        guard try Int.fetchOne(db, sql: "SELECT 1 FROM session WHERE id = ?", arguments: [id]) != nil else {
          throw SessionStoreError.noSuchSession(file: path, id: id)
        }
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE sessionId = ?", arguments: [id])
        guard let row = rows.first(where: { ($0["track"] as String) == track }) else {
          let tracks = rows.map { $0["track"] as String }.sorted().joined(separator: ", ")
          throw InputError(file: path, "session \(id) has no player track \(track) (players: \(tracks))")
        }
        if let name, let other = rows.first(where: { ($0["name"] as String?) == name && ($0["track"] as String) != track }) {
          throw InputError(
            file: path,
            "session \(id): \(other["track"] as String) is already named \(name); one person plays one track — rename \(other["track"] as String) first")
        }
        let previous: String? = row["name"]
        try db.execute(sql: "UPDATE player SET name = ? WHERE sessionId = ? AND track = ?", arguments: [name, id, track])
        let known = try Self.knownPlayers(db, excluding: id)
        let disagreement = try name.flatMap {
          matcher.check(track: track, name: $0, proportions: try Self.proportions(row), known: known)
        }
        return NameResult(previous: previous, disagreement: disagreement)
      }
    }
  }
}
