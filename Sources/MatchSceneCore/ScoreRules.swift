/// The scoring rules of a table-tennis match (ITTF Handbook 2024, rules 2.11–2.14): a game goes to
/// `pointsToWin` points with a lead of `winBy`; the service passes after every `servesPerTurn` points,
/// and after every point once both players have `pointsToWin − 1` (10–10, "deuce"); the player who
/// served first in a game receives first in the next; the players change ends after each game (and in
/// the deciding game when one of them first reaches `pointsToWin / 2` rounded down, i.e. 5 — rule
/// 2.14.2); the match is the best of `bestOf` games.
public struct ScoreRules: Sendable, Equatable, Codable {
  public var pointsToWin: Int
  public var winBy: Int
  public var servesPerTurn: Int
  /// An odd number of games; the first to win `bestOf / 2 + 1` wins the match.
  public var bestOf: Int

  public init(pointsToWin: Int = 11, winBy: Int = 2, servesPerTurn: Int = 2, bestOf: Int = 5) {
    self.pointsToWin = pointsToWin
    self.winBy = winBy
    self.servesPerTurn = servesPerTurn
    self.bestOf = bestOf
  }

  /// Games one player needs to win the match.
  public var gamesToWin: Int { bestOf / 2 + 1 }

  /// The ranges the settings may take, for checks and messages.
  public static let pointsToWinRange = 1...99
  public static let bestOfRange = 1...99

  /// Checks the settings. - Throws: `InputError` naming the setting (`file` is where they came from).
  public func validate(file: String = "score rules") throws {
    guard Self.pointsToWinRange.contains(pointsToWin) else {
      throw InputError(file: file, location: .key("points_per_game"), "must lie in 1…99, got \(pointsToWin)")
    }
    guard winBy >= 1, winBy <= pointsToWin else {
      throw InputError(file: file, location: .key("win_by"), "must lie in 1…points_per_game, got \(winBy)")
    }
    guard servesPerTurn >= 1, servesPerTurn <= 99 else {
      throw InputError(file: file, location: .key("serves_per_turn"), "must lie in 1…99, got \(servesPerTurn)")
    }
    guard Self.bestOfRange.contains(bestOf), bestOf % 2 == 1 else {
      throw InputError(file: file, location: .key("best_of"), "must be an odd number in 1…99, got \(bestOf)")
    }
  }
}

/// The state of a two-player match under `ScoreRules`: points in the current game, games, who serves
/// next, which end each player plays from. Players are indices 0 and 1.
public struct ScoreState: Sendable, Equatable {
  public var rules: ScoreRules
  /// Points of each player in the current game.
  public var points: [Int] = [0, 0]
  /// Games won by each player in the current match.
  public var games: [Int] = [0, 0]
  /// The player who served first in the current game.
  public var gameFirstServer: Int
  /// +1 when player 0 plays from the end it started the match at, −1 when the players have changed ends.
  public var endsSign: Int = 1
  /// Whether the deciding game's change of ends (rule 2.14.2) has happened.
  var decidingGameSwitched = false
  /// Matches completed (after the last point of a match the next point starts a new one).
  public var matchesCompleted = 0

  /// A new match: `firstServer` serves the first point.
  public init(rules: ScoreRules = .init(), firstServer: Int) {
    self.rules = rules
    self.gameFirstServer = firstServer
  }

  /// The player who serves the next point: the first server of the game for the first
  /// `servesPerTurn` points, then the other, alternating every `servesPerTurn` points, and every
  /// point once both have reached `pointsToWin − 1` (ITTF 2.13.3).
  public var server: Int {
    let played = points[0] + points[1]
    let deuce = rules.pointsToWin - 1
    if points[0] >= deuce, points[1] >= deuce {
      let start = 2 * deuce
      let atStart = (start / rules.servesPerTurn) % 2 == 0 ? gameFirstServer : 1 - gameFirstServer
      return (played - start) % 2 == 0 ? atStart : 1 - atStart
    }
    return (played / rules.servesPerTurn) % 2 == 0 ? gameFirstServer : 1 - gameFirstServer
  }

  /// Whether the current game is won by `player` at its current points.
  func hasWonGame(_ player: Int) -> Bool {
    points[player] >= rules.pointsToWin && points[player] - points[1 - player] >= rules.winBy
  }

  /// Whether the current game is the match's last possible one.
  public var isDecidingGame: Bool { games[0] == rules.gamesToWin - 1 && games[1] == rules.gamesToWin - 1 }

  /// What `award(to:)` did besides the point.
  public struct Outcome: Sendable, Equatable {
    /// The point ended a game (the state now holds the next game, points 0–0).
    public var gameWon = false
    /// The point ended the match (the state now holds a new match, games 0–0).
    public var matchWon = false
    /// Points of the game the point ended (before they were reset), when `gameWon`.
    public var finalPoints: [Int]?
    /// Games of the match the point ended (before they were reset), when `matchWon`.
    public var finalGames: [Int]?
    public init() {}
  }

  /// Gives a point to `player` (0 or 1) and moves on: a won game is counted and the next begins with
  /// the other first server and the ends changed; a won match starts a new one.
  @discardableResult
  public mutating func award(to player: Int) -> Outcome {
    precondition(player == 0 || player == 1, "ScoreState has two players, 0 and 1")
    var outcome = Outcome()
    points[player] += 1
    if isDecidingGame, !decidingGameSwitched, points[player] == rules.pointsToWin / 2, rules.pointsToWin >= 2 {
      endsSign = -endsSign
      decidingGameSwitched = true
    }
    guard hasWonGame(player) else { return outcome }
    outcome.gameWon = true
    outcome.finalPoints = points
    games[player] += 1
    points = [0, 0]
    gameFirstServer = 1 - gameFirstServer
    endsSign = -endsSign
    decidingGameSwitched = false
    if games[player] >= rules.gamesToWin {
      outcome.matchWon = true
      outcome.finalGames = games
      games = [0, 0]
      matchesCompleted += 1
    }
    return outcome
  }
}
