import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// The players' and bystander's true skeletons: rigid bones, feet on the floor, each player at their end,
/// and the racket wrist at the ball at every stroke.
final class BodyTests: XCTestCase {
  let skeleton = Skeleton.coco17

  func testBoneLengthsAreExactlyConstant() throws {
    let index = truthIndex(sharedMatch.truth)
    for track in ["P1", "P2", "B1"] {
      let frames = try XCTUnwrap(index[track], "track \(track)")
      XCTAssertEqual(frames.count, 1200)
      let first = frames[0]!
      for (a, b) in skeleton.bones {
        let na = skeleton.keypoints[a], nb = skeleton.keypoints[b]
        let reference = length(first[na]! - first[nb]!)
        XCTAssertGreaterThan(reference, 0.02)
        var worst = 0.0
        for joints in frames.values { worst = max(worst, abs(length(joints[na]! - joints[nb]!) - reference)) }
        XCTAssertLessThan(worst, 1e-9, "\(track) bone \(na)–\(nb)")
      }
    }
  }

  func testBodyScaleFollowsTheConfiguredHeight() throws {
    let index = truthIndex(sharedMatch.truth)
    func thigh(_ track: String) -> Double { length(index[track]![0]!["left_hip"]! - index[track]![0]!["left_knee"]!) }
    // Thigh = 0.245 H (Winter 2009): 1.70 m and 1.82 m players.
    assertClose(thigh("P1"), 0.245 * 1.70, absolute: 1e-9)
    assertClose(thigh("P2"), 0.245 * 1.82, absolute: 1e-9)
  }

  func testPlayersStayAtTheirEndOnTheFloorAndFaceTheTable() throws {
    let index = truthIndex(sharedMatch.truth)
    for (track, side) in [("P1", -1.0), ("P2", 1.0)] {
      for (frame, joints) in index[track]! {
        let pelvis = (joints["left_hip"]! + joints["right_hip"]!) / 2
        XCTAssertGreaterThan(side * pelvis.x, 1.37 + 0.25, "\(track) frame \(frame) stands behind the end line")
        for ankle in ["left_ankle", "right_ankle"] {
          assertClose(joints[ankle]!.z, 0.039 * (track == "P1" ? 1.70 : 1.82), absolute: 1e-9, "feet flat")
        }
        // Facing the table: the nose is on the table side of the shoulders.
        let shoulders = (joints["left_shoulder"]! + joints["right_shoulder"]!) / 2
        XCTAssertLessThan(side * (joints["nose"]! - shoulders).x, 0, "\(track) frame \(frame) faces the table")
        // Right-handed P1 facing +x has the left shoulder at +y.
        let across = joints["left_shoulder"]! - joints["right_shoulder"]!
        XCTAssertGreaterThan(-side * across.y, 0.15, "\(track) frame \(frame) shoulders across")
      }
    }
  }

  func testRacketWristReachesTheBallAtEveryHit() throws {
    for match in [sharedMatch, leftHandedMatch] {
      let index = truthIndex(match.truth)
      let hits = match.events.filter { $0.type == .hit }
      XCTAssertGreaterThan(hits.count, 6)
      for hit in hits {
        let track = try XCTUnwrap(hit.track)
        let handed = match.config.players[track == "P1" ? 0 : 1].handedness
        let wrist = try XCTUnwrap(index[track]?[hit.frame]?[handed == .right ? "right_wrist" : "left_wrist"])
        let ball = try XCTUnwrap(index["ball"]?[hit.frame]?["ball"])
        XCTAssertLessThan(length(wrist - ball), 0.2, "\(track) hit at frame \(hit.frame)")
        // The other wrist is not the one at the ball.
        let other = index[track]![hit.frame]![handed == .right ? "left_wrist" : "right_wrist"]!
        XCTAssertGreaterThan(length(other - ball), length(wrist - ball), "\(track) frame \(hit.frame) \(match.config.seed)")
      }
    }
  }

  func testServerHoldsTheBallOnTheFreeHandBeforeTheToss() throws {
    let index = truthIndex(sharedMatch.truth)
    for start in sharedMatch.events where start.type == .rallyStart {
      let server = start.track!
      // The first ball frame of the rally: the ball rests on the free hand.
      let balls = try XCTUnwrap(index["ball"])
      var first = start.frame
      while balls[first - 1] != nil { first -= 1 }
      XCTAssertGreaterThan(start.frame - first, 30, "rally \(start.rally!): held, then tossed")
      let ball = try XCTUnwrap(balls[first]?["ball"])
      let freeWrist = index[server]![first]!["left_wrist"]!
      XCTAssertLessThan(length(freeWrist - ball), 0.12, "rally \(start.rally!) hold")
      // Held still, above the table's height and behind the end line (ITTF rule 2.6.1).
      XCTAssertEqual(balls[first + 10]?["ball"], ball)
      XCTAssertGreaterThan(ball.z, 0.76)
      XCTAssertGreaterThan(abs(ball.x), 1.37)
    }
  }
}

/// A match where P2 holds the racket in the left hand.
let leftHandedMatch: SimulatedMatch = try! MatchSimulator.simulate(
  spinless(
    SimulationConfig(
      seed: 21, duration: 12, players: [PlayerConfig(height: 1.75), PlayerConfig(height: 1.68, handedness: .left)],
      noise: .none)),
  sport: tableTennis)
