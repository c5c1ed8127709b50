import MatchSceneCore
import TestSupport
import XCTest
@testable import MatchSceneBallPlay
import MatchSceneIO

/// Who wins a rally and why (`PointJudge`), the score kept from the events (`Scoreboard`), and the
/// hand-raise claim detector on a synthetic player: claims, and the moves that must not count.
final class StoryRulesTests: XCTestCase {
  let fps = 60.0

  func hit(_ frame: Int, x: Double, by track: String, rally: Int = 1) -> MatchEvent {
    var e = MatchEvent(type: .hit, frame: frame, time: Double(frame) / fps, track: track, position: SIMD3(x, 0, 1))
    e.rally = rally
    return e
  }

  func bounce(_ frame: Int, x: Double, floor: Bool = false, rally: Int = 1) -> MatchEvent {
    MatchEvent(
      type: .bounce, frame: frame, time: Double(frame) / fps, position: SIMD3(x, 0, floor ? 0.02 : 0.78),
      surface: floor ? .floor : .table, side: floor ? nil : TableSide(x: x), rally: rally)
  }

  func net(_ frame: Int, rally: Int = 1) -> MatchEvent {
    MatchEvent(type: .net, frame: frame, time: Double(frame) / fps, position: SIMD3(0, 0, 0.85), rally: rally)
  }

  func testTheJudgeNamesWinnerAndReason() throws {
    // Serve from −x, good return by P2, P1 misses: P2 wins (missed_return).
    var v = try XCTUnwrap(PointJudge.judge([
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), hit(135, x: 1.6, by: "P2"),
      bounce(150, x: -0.8), bounce(175, x: -3, floor: true),
    ]))
    XCTAssertEqual(v.lastHitter, "P2")
    XCTAssertTrue(v.lastHitterWins)
    XCTAssertEqual(v.reason, .missedReturn)
    // A serve that bounces twice on the receiver's half: double bounce, server wins.
    v = try XCTUnwrap(PointJudge.judge([hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.4), bounce(140, x: 1.0)]))
    XCTAssertEqual(v.reason, .doubleBounce)
    XCTAssertTrue(v.lastHitterWins)
    // A return into the net that falls back: the hitter loses (net).
    v = try XCTUnwrap(PointJudge.judge([
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), hit(135, x: 1.6, by: "P2"), net(145),
      bounce(150, x: 0.2),
    ]))
    XCTAssertEqual(v.reason, .net)
    XCTAssertFalse(v.lastHitterWins)
    // A serve straight onto the receiver's half: bad serve.
    v = try XCTUnwrap(PointJudge.judge([hit(100, x: -1.5, by: "P1"), bounce(110, x: 0.6)]))
    XCTAssertEqual(v.reason, .badServe)
    XCTAssertFalse(v.lastHitterWins)
    // A return that lands on the floor: off the table.
    v = try XCTUnwrap(PointJudge.judge([
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), hit(135, x: 1.6, by: "P2"),
      bounce(160, x: -3.2, floor: true),
    ]))
    XCTAssertEqual(v.reason, .offTable)
    XCTAssertFalse(v.lastHitterWins)
    // No hit: no verdict.
    XCTAssertNil(PointJudge.judge([bounce(105, x: -0.6)]))
  }

  /// Three rallies through the scoreboard: point events with the game score, games and next server.
  func testScoreboardMakesPointEvents() {
    var events: [MatchEvent] = []
    for (r, start) in [(1, 100), (2, 600), (3, 1100)] {
      var s = MatchEvent(type: .rallyStart, frame: start, time: Double(start) / fps, track: "P1", rally: r)
      s.position = [-1.5, 0, 1]
      events.append(s)
      events += [hit(start, x: -1.5, by: "P1", rally: r), bounce(start + 5, x: -0.6, rally: r), bounce(start + 20, x: 0.7, rally: r)]
      if r == 2 {
        events += [hit(start + 35, x: 1.6, by: "P2", rally: r), bounce(start + 50, x: -0.8, rally: r)]
      }
      events.append(bounce(start + 80, x: 3.0, floor: true, rally: r))
      events.append(MatchEvent(type: .rallyEnd, frame: start + 80, time: Double(start + 80) / fps, rally: r))
    }
    let entries = Scoreboard.compute(events, sides: ["P1": "negative_x", "P2": "positive_x"])
    XCTAssertEqual(entries.map(\.winner), ["P1", "P2", "P1"])
    XCTAssertEqual(entries.last?.gamePoints, ["P1": 2, "P2": 1])
    XCTAssertEqual(entries.last?.games, ["P1": 0, "P2": 0])
    XCTAssertEqual(entries.map(\.server), ["P1", "P2", "P2"])
    XCTAssertEqual(entries.last?.ends, ["P1": "negative_x", "P2": "positive_x"])
    let points = Scoreboard.pointEvents(entries, events: events)
    XCTAssertEqual(points.map(\.reason), [.missedReturn, .missedReturn, .missedReturn])
    XCTAssertEqual(points.map(\.track), ["P1", "P2", "P1"])
    // The undecided last rally (the recording stopped with the ball in play) gets no point.
    XCTAssertEqual(Scoreboard.compute(events, sides: ["P1": "negative_x", "P2": "positive_x"], undecidedAfter: 1180).compactMap(\.winner).count, 2)
  }

  // MARK: - Claims

  /// What a player's arms do at a time: each arm down, or straight up.
  struct Arms {
    var leftUp = false, rightUp = false
  }

  /// A right-handed player standing at (−2, 0), facing +x, arms as `arms(t)`, each joint seen with
  /// `noise` (σ per axis, metres), for `seconds`.
  func player(seconds: Double, noise: Double, seed: UInt64 = 1, arms: (Double) -> Arms) -> MotionModel {
    var rng = SeededGenerator(seed: seed)
    func gauss() -> Double { (-2 * log(max(1e-12, rng.uniform(0...1)))).squareRoot() * cos(2 * .pi * rng.uniform(0...1)) }
    let skeleton = Skeleton.coco17
    var points: [TrackPoint] = []
    let count = Int(seconds * fps)
    for f in 0..<count {
      let t = Double(f) / fps
      let a = arms(t)
      var joints: [String: SIMD3<Double>] = [
        "nose": SIMD3(-1.9, 0, 1.62), "left_eye": SIMD3(-1.9, 0.03, 1.65), "right_eye": SIMD3(-1.9, -0.03, 1.65),
        "left_ear": SIMD3(-2, 0.08, 1.62), "right_ear": SIMD3(-2, -0.08, 1.62),
        "left_hip": SIMD3(-2, 0.12, 0.95), "right_hip": SIMD3(-2, -0.12, 0.95), "left_knee": SIMD3(-2, 0.12, 0.5),
        "right_knee": SIMD3(-2, -0.12, 0.5), "left_ankle": SIMD3(-2, 0.12, 0.08), "right_ankle": SIMD3(-2, -0.12, 0.08),
      ]
      for (side, y, up) in [("left", 0.2, a.leftUp), ("right", -0.2, a.rightUp)] {
        let shoulder = SIMD3(-2, y, 1.45)
        joints["\(side)_shoulder"] = shoulder
        joints["\(side)_elbow"] = shoulder + (up ? SIMD3(0.02, 0, 0.29) : SIMD3(0.05, 0, -0.28))
        joints["\(side)_wrist"] = shoulder + (up ? SIMD3(0.04, 0, 0.56) : SIMD3(0.25, 0, -0.4))
      }
      for name in skeleton.keypoints {
        points.append(TrackPoint(
          frame: f, time: t, track: "P1", kind: .player, joint: name, position: joints[name]! + noise * SIMD3(gauss(), gauss(), gauss()),
          reprojectionPx: 0, views: 2))
      }
    }
    return MotionModel(points: points, fps: fps, skeleton: skeleton)
  }

  /// One claim per raise, at the hold; smashes (racket arm up), stretches (both up) and tosses (free
  /// hand up for a moment) never; a dip that does not reach the release height nor last the re-arm
  /// time does not make a second claim. 2 cm of joint noise.
  func testClaimsAndTheMovesThatAreNotClaims() {
    let hits = [MatchEvent(type: .hit, frame: 30, time: 0.5, track: "P1", position: SIMD3(-1.6, -0.3, 1.0))]
    let motion = player(seconds: 20, noise: 0.02) { t in
      var a = Arms()
      if (1.0..<2.5).contains(t) { a.leftUp = true }  // a claim (hold 1 s → at 2.0 s)
      if (3.0..<3.4).contains(t) { a.leftUp = true }  // a toss: too short
      if (4.0..<6.0).contains(t) { a.rightUp = true }  // a smash's reach held: racket hand
      if (7.0..<9.0).contains(t) { a.leftUp = true; a.rightUp = true }  // a stretch
      if (10.0..<11.5).contains(t) || (11.6..<13.0).contains(t) { a.leftUp = true }  // one raise, a 0.1 s dip
      if (15.0..<16.5).contains(t) { a.leftUp = true }  // a second claim, well after
      return a
    }
    // Joints seen at every frame (hits make the right hand the racket's).
    let claims = motion.handRaiseClaims(hits: hits)
    XCTAssertEqual(claims.count, 3, "\(claims.map(\.time))")
    for (claim, expected) in zip(claims, [2.0, 11.0, 16.0]) {
      XCTAssertEqual(claim.time, expected, accuracy: 0.1)
      XCTAssertEqual(claim.hand, .left)
      XCTAssertEqual(claim.track, "P1")
    }
    // Without hits, the faster wrist is the racket's: still no claim from the right hand held up alone.
    let smashOnly = player(seconds: 4, noise: 0.02, seed: 2) { t in
      var a = Arms()
      a.rightUp = (1.0..<3.0).contains(t)
      return a
    }
    XCTAssertEqual(smashOnly.handRaiseClaims(hits: hits).count, 0)
    // The hold is configurable: 1.45 s moves each claim on by 0.45 s; 1.6 s is longer than every raise.
    XCTAssertEqual(motion.handRaiseClaims(hits: hits, options: ClaimOptions(hold: 1.45)).map { ($0.time * 10).rounded() / 10 }, [2.5, 11.5, 16.5])
    XCTAssertEqual(motion.handRaiseClaims(hits: hits, options: ClaimOptions(hold: 1.6)).count, 0)
    XCTAssertThrowsError(try ClaimOptions(hold: 0).validate()) { XCTAssertTrue("\($0)".contains("hold")) }
  }
}
