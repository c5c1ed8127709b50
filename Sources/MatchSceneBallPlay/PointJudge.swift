import MatchSceneCore

/// Who won one rally and why, from its events, by the ITTF rules (Handbook 2.10): the player whose
/// last stroke reached the opponent's half — after a serve, one bounce on the server's own half then
/// one on the receiver's; after any other stroke, one on the opponent's half — wins the point when it
/// is not returned; a last stroke that did not reach it loses the point.
///
/// The hitter's half is the side of the table (venue x) the stroke was made on, so the judgement holds
/// when the players change ends.
public enum PointJudge {
  /// The verdict on one rally.
  public struct Verdict: Sendable, Equatable {
    /// The track that made the rally's last stroke.
    public var lastHitter: String
    /// Whether that stroke reached the opponent's half (the last hitter won the point).
    public var lastHitterWins: Bool
    public var reason: PointReason
  }

  /// Judges a rally from its events (hits, bounces and net touches of one rally, any order; other kinds
  /// are ignored). Nil when the rally has no hit with a position.
  public static func judge(_ rallyEvents: [MatchEvent]) -> Verdict? {
    let events = rallyEvents.sorted { $0.frame < $1.frame }
    guard let firstHit = events.firstIndex(where: { $0.type == .hit && $0.track != nil && $0.position != nil }) else {
      return nil
    }
    // The last stroke and what followed it.
    let lastIndex = events.lastIndex { $0.type == .hit && $0.track != nil && $0.position != nil }!
    let last = events[lastIndex]
    let own = TableSide(x: last.position!.x)
    let other = own.other
    let isServe = lastIndex == firstHit
    var expected = isServe ? [own, other] : [other]
    var net = false
    var good = false
    var reachedDouble = false
    var decided = false
    for e in events[(lastIndex + 1)...] {
      switch e.type {
      case .net:
        if !expected.isEmpty { net = true }
      case .bounce:
        if e.surface == .table, let side = e.side, expected.first == side {
          expected.removeFirst()
          if expected.isEmpty { good = true }
          continue
        }
        // The first bounce no good rally allows.
        if expected.isEmpty, e.surface == .table, e.side == other { reachedDouble = true }
        decided = true
      default:
        continue
      }
      if decided { break }
    }
    if expected.isEmpty { good = true }
    let reason: PointReason =
      good ? (reachedDouble ? .doubleBounce : .missedReturn) : net ? .net : isServe ? .badServe : .offTable
    return Verdict(lastHitter: last.track!, lastHitterWins: good, reason: reason)
  }
}
