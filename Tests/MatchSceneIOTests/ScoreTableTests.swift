import Foundation
import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneIO

/// `match.toml`'s `[score]` table: read, written back, bad values named by key.
final class ScoreTableTests: XCTestCase {
  func testReadsAndRoundTripsTheScoreTable() throws {
    let config = try MatchConfig.parse(
      """
      sport = "table-tennis"
      [players]
      P1 = "Ana"
      [score]
      points_per_game = 21
      best_of = 3
      policy = "override"
      claim_hold = 1.5
      """, file: "match.toml")
    let score = try XCTUnwrap(config.score)
    XCTAssertEqual(score.rules, ScoreRules(pointsToWin: 21, bestOf: 3))
    XCTAssertEqual(score.policy, .override)
    XCTAssertEqual(score.claimHold, 1.5)
    let url = try makeTemporaryFolder().appendingPathComponent("match.toml")
    try config.write(to: url)
    XCTAssertEqual(try MatchConfig.read(from: url), config)
    XCTAssertNil(try MatchConfig.parse("fps = 60", file: "match.toml").score)
  }

  func testBadScoreValuesNameTheKey() {
    for (text, key) in [
      ("[score]\npolicy = \"loudest\"", "score.policy"), ("[score]\nbest_of = 4", "best_of"),
      ("[score]\nclaim_hold = 0", "score.claim_hold"), ("[score]\npoints = 11", "score.points"),
      ("[score]\npoints_per_game = \"eleven\"", "score.points_per_game"),
    ] {
      XCTAssertThrowsError(try MatchConfig.parse(text, file: "match.toml"), text) { error in
        XCTAssertTrue("\(error)".contains(key), "\(error)")
        XCTAssertTrue("\(error)".contains("match.toml"), "\(error)")
      }
    }
  }
}
