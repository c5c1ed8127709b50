import Foundation
import MatchSceneCore

/// One stored session as `sessions list` and `show` print it.
public struct SessionSummary: Sendable, Codable, Equatable {
  public var id: Int64
  public var name: String
  /// Day of the match, `yyyy-MM-dd`.
  public var date: String
  public var place: String?
  public var sport: String
  public var fps: Double
  /// The MatchScene that stored it.
  public var toolVersion: String
  /// SHA-256 of the output folder's files.
  public var inputHash: String
  /// The output folder it was added from.
  public var source: String
  public var firstFrame: Int
  public var frameCount: Int
  /// Player track → name (nil: unnamed).
  public var players: [String: String?]
  /// Final points per player track, when the events allowed keeping the score.
  public var score: [String: Int]?
  /// When it was added (ISO 8601, UTC).
  public var addedAt: String

  /// Seconds of match.
  public var duration: Double { Double(frameCount) / fps }

  /// `P1 Ana, P2 (unnamed)`.
  public var playersText: String {
    players.keys.sorted().map { "\($0) \(players[$0].flatMap { $0 } ?? "(unnamed)")" }.joined(separator: ", ")
  }
}

/// A stored session read back whole.
public struct StoredSession: Sendable {
  public var summary: SessionSummary
  /// World frame, as `tracks.csv`.
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var venue: VenueFrame?
  /// `report.json`, and `strokes.json` / `angles.csv` when the output had them.
  public var documents: [String: Data]
  /// Player track → median bone lengths.
  public var proportions: [String: BodyProportions]

  /// The track of the player named `name`, if they played in this session.
  public func track(ofPlayer name: String) -> String? {
    summary.players.first { $0.value == name }?.key
  }
}
