import Foundation
import MatchSceneCore

/// `score.json`: the score's timeline (written into an output folder by `MatchOutput.writeJSON(_:as:in:)`).
///
/// ```json
/// { "rules": {"pointsToWin": 11, "winBy": 2, "servesPerTurn": 2, "bestOf": 5},
///   "policy": "automatic", "claimHold": 1,
///   "players": {"P1": "Ana"},
///   "points": [{"rally": 1, "frame": 412, "time": 6.87, "winner": "P2", "reason": "missed_return",
///               "score": {"P1": 0, "P2": 1}, "gamePoints": {"P1": 0, "P2": 1}, "games": {"P1": 0, "P2": 0},
///               "server": "P1", "ends": {"P1": "negative_x", "P2": "positive_x"}}],
///   "final": {"gamePoints": {…}, "games": {…}, "server": "P1"},
///   "disagreements": [{"rally": 3, "frame": 900, "time": 15, "automatic": "P1", "claimed": "P2", "kept": "claim"}] }
/// ```
/// `points` has an entry per rally (`winner` absent when it could not be told); `score` counts every
/// point of the recording, `gamePoints` the current game's.
public struct ScoreFile: Sendable, Codable, Equatable {
  public var rules: ScoreRules
  public var policy: ScorePolicy
  public var claimHold: Double
  /// A name per player track (`match.toml`'s `[players]`).
  public var players: [String: String]
  public var points: [ScoreEntry]
  public var final: Final?
  public var disagreements: [ScoreDisagreement]

  /// The state after the last point.
  public struct Final: Sendable, Codable, Equatable {
    public var gamePoints: [String: Int]?
    public var games: [String: Int]?
    public var server: String?
  }

  public init(settings: ScoreSettings, players: [String: String], points: [ScoreEntry], disagreements: [ScoreDisagreement]) {
    rules = settings.rules
    policy = settings.policy
    claimHold = settings.claimHold
    self.players = players
    self.points = points
    let last = points.last { $0.winner != nil }
    final = last.map { Final(gamePoints: $0.gamePoints, games: $0.games, server: $0.server) }
    self.disagreements = disagreements
  }

  /// Writes the file whole (`AtomicFile`), keys sorted.
  public func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(self), to: url)
  }

  /// Reads a `score.json`. - Throws: `InputError` naming the file when it is not one.
  public static func read(from url: URL) throws -> ScoreFile {
    let data: Data
    do { data = try Data(contentsOf: url) } catch { throw InputError(file: url.path, "cannot be read: \(error.localizedDescription)") }
    do { return try JSONDecoder().decode(ScoreFile.self, from: data) } catch {
      throw InputError(file: url.path, "is not a score.json: \(error)")
    }
  }
}
