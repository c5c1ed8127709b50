import Foundation

extension SessionStore {
  /// The sessions to compare, each with the track to measure: the player named `player` when given (its
  /// track in each session), else `track`. Only that track is decoded.
  /// - Throws: `SessionStoreError.noSuchSession`; `.playerMissing` when a session has no such player or track.
  public func comparisonEntries(_ ids: [Int64], player: String?, track: String = "P1") throws
    -> [(session: StoredSession, track: String)]
  {
    try ids.map { id in
      let summary = try self.summary(id)
      let chosen = player.flatMap { name in summary.players.first { $0.value == name }?.key } ?? (player == nil ? track : nil)
      guard let chosen, summary.players[chosen] != nil else {
        throw SessionStoreError.playerMissing(
          file: path, session: id, player: player ?? track, known: summary.playersText)
      }
      return (try load(id, tracks: [chosen]), chosen)
    }
  }

  /// `comparisonEntries` measured one session at a time, so that only one session's track is in memory.
  public func comparisonMetrics(_ ids: [Int64], player: String?, track: String = "P1") throws -> [SessionMetrics] {
    try ids.map { id in
      let entry = try comparisonEntries([id], player: player, track: track)[0]
      return try SessionMetrics(entry.session, track: entry.track)
    }
  }
}
