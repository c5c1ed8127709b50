import MatchSceneCore
import XCTest

/// The table-tennis scoring rules (ITTF Handbook 2024, 2.11–2.14): games to 11 by 2, the service
/// every 2 points and every point from 10–10, first servers alternating by game, ends, best of N.
final class ScoreRulesTests: XCTestCase {
  /// Plays `winners` (player indices) from a new match; returns the server before each point.
  func servers(_ winners: [Int], firstServer: Int = 0, rules: ScoreRules = .init()) -> (servers: [Int], state: ScoreState) {
    var state = ScoreState(rules: rules, firstServer: firstServer)
    var out: [Int] = []
    for w in winners {
      out.append(state.server)
      state.award(to: w)
    }
    return (out, state)
  }

  func testServiceChangesEveryTwoPoints() {
    let (s, state) = servers([0, 1, 1, 0, 0, 0, 1, 1, 0, 1])
    XCTAssertEqual(s, [0, 0, 1, 1, 0, 0, 1, 1, 0, 0])
    XCTAssertEqual(state.points, [5, 5])
    XCTAssertEqual(state.server, 1)
    XCTAssertEqual(servers([1, 1, 1], firstServer: 1).servers, [1, 1, 0])
  }

  /// From 10–10 the service alternates after every point and a game needs a 2-point lead: 10–10,
  /// 11–10, 11–11, 12–11, 13–11 wins.
  func testDeuceAlternatesEveryPointAndNeedsTwoClear() {
    // Alternate wins up to 10–10 (20 points): the server pattern is the two-point one.
    let toDeuce = (0..<20).map { $0 % 2 }
    var (s, state) = servers(toDeuce)
    XCTAssertEqual(s, (0..<20).map { ($0 / 2) % 2 })
    XCTAssertEqual(state.points, [10, 10])
    XCTAssertEqual(state.server, 0)  // 20 points played: player 0's turn, then every point
    var deuceServers: [Int] = []
    for w in [0, 1, 0, 0] {
      deuceServers.append(state.server)
      let outcome = state.award(to: w)
      if w == 0, deuceServers.count == 4 {
        XCTAssertTrue(outcome.gameWon)
        XCTAssertEqual(outcome.finalPoints, [13, 11])
      } else {
        XCTAssertFalse(outcome.gameWon, "no game at \(state.points)")
      }
    }
    XCTAssertEqual(deuceServers, [0, 1, 0, 1])
    XCTAssertEqual(state.games, [1, 0])
    XCTAssertEqual(state.points, [0, 0])
    s = []
  }

  /// 11–9 wins; the next game's first server is the first game's first receiver; the ends change.
  func testGameWonAtElevenNextGameOtherServerEndsChange() {
    var state = ScoreState(firstServer: 1)
    for _ in 0..<9 { state.award(to: 1) }
    for _ in 0..<10 { XCTAssertFalse(state.award(to: 0).gameWon && state.points != [0, 0]) }
    // 10–9 to player 0 after 19 points; the 11th point wins.
    XCTAssertEqual(state.points, [10, 9])
    XCTAssertEqual(state.endsSign, 1)
    let outcome = state.award(to: 0)
    XCTAssertTrue(outcome.gameWon)
    XCTAssertEqual(outcome.finalPoints, [11, 9])
    XCTAssertEqual(state.games, [1, 0])
    XCTAssertEqual(state.server, 0)
    XCTAssertEqual(state.endsSign, -1)
  }

  /// Best of 3: two games win the match; in the deciding game the ends change when a player first
  /// reaches 5 points (2.14.2); the next point starts a new match.
  func testBestOfThreeAndTheDecidingGamesChangeOfEnds() {
    let rules = ScoreRules(bestOf: 3)
    var state = ScoreState(rules: rules, firstServer: 0)
    for _ in 0..<11 { state.award(to: 0) }
    for _ in 0..<11 { state.award(to: 1) }
    XCTAssertEqual(state.games, [1, 1])
    XCTAssertTrue(state.isDecidingGame)
    XCTAssertEqual(state.endsSign, 1)  // changed twice
    for _ in 0..<4 { state.award(to: 1) }
    XCTAssertEqual(state.endsSign, 1)
    state.award(to: 1)  // 0–5
    XCTAssertEqual(state.endsSign, -1)
    state.award(to: 0)
    XCTAssertEqual(state.endsSign, -1)
    var last = ScoreState.Outcome()
    for _ in 0..<6 { last = state.award(to: 1) }
    XCTAssertTrue(last.matchWon)
    XCTAssertEqual(last.finalGames, [1, 2])
    XCTAssertEqual(state.games, [0, 0])
    XCTAssertEqual(state.matchesCompleted, 1)
  }

  func testShortGamesAndBadRulesAreRejected() throws {
    let rules = ScoreRules(pointsToWin: 5, bestOf: 1)
    let (_, state) = servers([0, 0, 0, 0, 0], rules: rules)
    XCTAssertEqual(state.matchesCompleted, 1)
    XCTAssertThrowsError(try ScoreRules(bestOf: 4).validate()) { XCTAssertTrue("\($0)".contains("best_of"), "\($0)") }
    XCTAssertThrowsError(try ScoreRules(pointsToWin: 0).validate()) { XCTAssertTrue("\($0)".contains("points_per_game"), "\($0)") }
    XCTAssertNoThrow(try ScoreRules().validate())
  }
}
