import Foundation
import MatchSceneCore

/// An event's optional fields beyond the store's v1 columns (the `event.story` column, schema step
/// `v2-event-story`): the point's reason, score, games and next server, a claim's hand, a zone event's
/// zone and joint, a rest's duration.
struct EventStory: Codable, Equatable {
  var reason: PointReason?
  var score: [String: Int]?
  var games: [String: Int]?
  var server: String?
  var hand: BodyHand?
  var zone: String?
  var joint: String?
  var duration: Double?

  init(_ e: MatchEvent) {
    reason = e.reason
    score = e.score
    games = e.games
    server = e.server
    hand = e.hand
    zone = e.zone
    joint = e.joint
    duration = e.duration
  }

  /// The JSON text, keys sorted; nil when every field is nil.
  var json: String? {
    get throws {
      guard self != EventStory(MatchEvent(type: .hit, frame: 0, time: 0)) else { return nil }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
  }

  func apply(to e: inout MatchEvent) {
    e.reason = reason
    e.score = score
    e.games = games
    e.server = server
    e.hand = hand
    e.zone = zone
    e.joint = joint
    e.duration = duration
  }
}
