import Foundation
import MatchSceneCore

/// One player's own ball play in a session: their hits during rallies only, and where those shots went,
/// from the session's events (venue frame, metres, m/s).
public struct PlayerBall: Sendable, Codable, Equatable {
  /// Where one of their shots first bounced on the opponent's half (venue x, y).
  public struct Landing: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double
  }

  /// Their hits between a rally's start and end.
  public var hits: Int
  /// Ball speed after each of those hits, when the events had it.
  public var speeds: [Double]
  /// The first table bounce on the opponent's half after each of their hits that reached it.
  public var landings: [Landing]
  /// Points they lost by their own stroke, by kind: `net` (into the net), `out` (not on the opponent's
  /// half: floor, out, own half), `serve` (a bad serve), `missed` (a good ball of the opponent's not
  /// returned, or let bounce twice). From the `point` events' reasons (ITTF 2.10.1).
  public var errors: [String: Int]

  public var medianSpeed: Double? { speeds.isEmpty ? nil : median(speeds) }
  /// Share of their hits that landed on the opponent's half, 0…1.
  public var landedShare: Double? { hits > 0 ? Double(landings.count) / Double(hits) : nil }
  public var errorCount: Int { errors.values.reduce(0, +) }

  public static let errorKinds = ["net", "out", "serve", "missed"]

  /// `track`'s ball play from `events`; venue positions through `venueFromWorld`. Which half is theirs
  /// is taken from where the ball was at each of their hits.
  public init(_ events: [MatchEvent], track: String, venueFromWorld: RigidTransform) {
    var hits = 0, speeds: [Double] = [], landings: [Landing] = []
    var errors = Dictionary(uniqueKeysWithValues: Self.errorKinds.map { ($0, 0) })
    var inRally = false
    // The half the player's latest hit was made from, until its landing is found or another hit comes.
    var awaiting: TableSide?
    for e in events {
      switch e.type {
      case .rallyStart:
        inRally = true
        awaiting = nil
      case .rallyEnd:
        inRally = false
        awaiting = nil
      case .hit:
        awaiting = nil
        guard inRally, e.track == track else { continue }
        hits += 1
        if let v = e.speed { speeds.append(v) }
        if let p = e.position { awaiting = TableSide(x: venueFromWorld.apply(p).x) }
      case .bounce:
        guard let from = awaiting, e.surface == .table, let p = e.position else { continue }
        let v = venueFromWorld.apply(p)
        if TableSide(x: v.x) == from.other {
          landings.append(Landing(x: v.x, y: v.y))
          awaiting = nil
        }
      case .point:
        guard let winner = e.track, winner != track, let reason = e.reason else { continue }
        switch reason {
        case .net: errors["net", default: 0] += 1
        case .offTable: errors["out", default: 0] += 1
        case .badServe: errors["serve", default: 0] += 1
        case .missedReturn, .doubleBounce: errors["missed", default: 0] += 1
        case .claim: break
        }
      case .net, .claim, .zoneEnter, .zoneExit, .ballAtRest:
        break
      }
    }
    self.hits = hits
    self.speeds = speeds
    self.landings = landings
    self.errors = errors
  }
}
