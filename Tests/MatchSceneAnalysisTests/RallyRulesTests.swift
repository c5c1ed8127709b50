@testable import MatchSceneAnalysis
@testable import MatchSceneBallFlight
import MatchSceneCore
import XCTest
@testable import MatchSceneMotion
@testable import MatchSceneBallPlay
import MatchSceneEvaluation
import MatchSceneIO

/// Rally boundaries: decided by the rules, robust to a missed hit, started at the toss, and the ball
/// evaluation against in-play windows.
final class RallyRulesTests: XCTestCase {
  let fps = 60.0
  let detector = EventDetector(
    table: TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02))

  func hit(_ frame: Int, x: Double, by track: String) -> MatchEvent {
    MatchEvent(type: .hit, frame: frame, time: Double(frame) / fps, track: track, position: SIMD3(x, 0, 1))
  }

  func bounce(_ frame: Int, x: Double, floor: Bool = false) -> MatchEvent {
    MatchEvent(
      type: .bounce, frame: frame, time: Double(frame) / fps, position: SIMD3(x, 0, floor ? 0.02 : 0.78),
      surface: floor ? .floor : .table, side: floor ? nil : TableSide(x: x))
  }

  /// A ball seen in flight (a straight line) over `frames`: no rest, no loss inside.
  func flying(_ frames: ClosedRange<Int>) -> [Int: SIMD3<Double>] {
    Dictionary(uniqueKeysWithValues: frames.map { ($0, SIMD3(0.05 * Double($0 % 40), 0, 1)) })
  }

  func ends(_ events: [MatchEvent]) -> [Int] { events.filter { $0.type == .rallyEnd }.map(\.frame) }
  func starts(_ events: [MatchEvent]) -> [Int] { events.filter { $0.type == .rallyStart }.map(\.frame) }

  /// Serve from −x: own half, other half, return, other half … then the floor decides the rally.
  func testFloorBounceDecidesTheRally() {
    let contacts = [
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), hit(135, x: 1.6, by: "P2"),
      bounce(150, x: -0.8), bounce(175, x: -3, floor: true), bounce(190, x: -3.5, floor: true),
    ]
    let events = detector.addRallies(contacts, ball: flying(90...400), fps: fps)
    XCTAssertEqual(starts(events), [100])
    XCTAssertEqual(ends(events), [175])
    // The end comes after the bounce of its frame; every event of the rally carries its number.
    let i = events.firstIndex { $0.type == .rallyEnd }!
    XCTAssertEqual(events[i - 1].type, .bounce)
    XCTAssertEqual(events[i - 1].frame, 175)
  }

  /// A second bounce on the receiver's half, and a bounce on the hitter's own half after a rally
  /// stroke (a net ball falling back), each decide the rally.
  func testBouncesNoGoodRallyAllowsDecideTheRally() {
    let twice = [hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), bounce(140, x: 1.2)]
    XCTAssertEqual(ends(detector.addRallies(twice, ball: flying(90...400), fps: fps)), [140])
    let netBack = [
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), hit(135, x: 1.6, by: "P2"),
      bounce(150, x: 0.1),
    ]
    XCTAssertEqual(ends(detector.addRallies(netBack, ball: flying(90...400), fps: fps)), [150])
  }

  /// A hit the detector missed makes the next bounce look like a fault; the stroke that follows
  /// within a second shows the rally went on: one rally, not several.
  func testAMissedHitDoesNotSplitTheRally() {
    let contacts = [
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7),
      // P2's return at ~135 was missed: its bounce on −x is unexpected …
      bounce(150, x: -0.8),
      // … but P1 strikes 20 frames later.
      hit(170, x: -1.5, by: "P1"), bounce(185, x: 0.9), bounce(200, x: -3, floor: true),
    ]
    let events = detector.addRallies(contacts, ball: flying(90...400), fps: fps)
    XCTAssertEqual(starts(events), [100])
    XCTAssertEqual(ends(events), [200])
    XCTAssertTrue(events.filter { $0.type != .rallyStart && $0.type != .rallyEnd }.allSatisfy { $0.rally == 1 })
  }

  /// A real decision followed by the next serve seconds later gives two rallies.
  func testTheNextServeStartsANewRally() {
    let contacts = [
      hit(100, x: -1.5, by: "P1"), bounce(105, x: -0.6), bounce(120, x: 0.7), bounce(140, x: 3, floor: true),
      hit(400, x: 1.5, by: "P2"), bounce(405, x: 0.6), bounce(420, x: -0.7),
    ]
    let events = detector.addRallies(contacts, ball: flying(90...500), fps: fps)
    XCTAssertEqual(starts(events), [100, 400])
    XCTAssertEqual(ends(events).first, 140)
  }

  /// The rally window reaches back over the toss but not over the ball held still on the palm.
  func testRallyWindowStartsAtTheToss() {
    var ball: [Int: SIMD3<Double>] = [:]
    for f in 0..<60 { ball[f] = SIMD3(-1.6, 0.3, 0.9) }  // held on the palm for a second
    for f in 60..<90 {  // tossed up and falling back: 0.5 s
      let t = Double(f - 60) / fps
      ball[f] = SIMD3(-1.6, 0.3, 0.9 + 2.45 * t - 4.905 * t * t)
    }
    for f in 90...150 { ball[f] = SIMD3(-1.6 + 0.1 * Double(f - 90), 0.3, 0.9) }
    let events = [
      MatchEvent(type: .rallyStart, frame: 90, time: 1.5), MatchEvent(type: .rallyEnd, frame: 150, time: 2.5),
    ]
    let ranges = Rallies.inPlay(events, ball: ball, maxGap: 15, stillFrames: 9, stillRadius: 0.01)
    XCTAssertEqual(ranges.count, 1)
    XCTAssertEqual(ranges[0].upperBound, 150)
    XCTAssertTrue((58...61).contains(ranges[0].lowerBound), "starts at the last still moment, got \(ranges[0].lowerBound)")
  }

  func testBallPlayEvaluationCountsInPlayCoverageAndOutOfPlayReports() {
    func ball(_ frame: Int, views: Int = 3) -> TrackPoint {
      TrackPoint(
        frame: frame, time: Double(frame) / fps, track: "ball", kind: .ball, joint: "ball", position: .zero,
        reprojectionPx: 0, views: views)
    }
    let truth = (0...300).map { ball($0, views: $0 == 150 ? 1 : 3) }
    let events = [
      MatchEvent(type: .rallyStart, frame: 100, time: 100 / fps), MatchEvent(type: .rallyEnd, frame: 199, time: 199 / fps),
    ]
    // Estimated: the rally minus 2 frames, plus 10 frames long after it.
    let estimate = (100...199).filter { $0 != 120 && $0 != 121 }.map { ball($0) } + (260..<270).map { ball($0) }
    func motion(_ points: [TrackPoint]) -> MotionModel { MotionModel(points: points, fps: fps, skeleton: .coco17) }
    let e = BallPlayEvaluation(estimate: motion(estimate), truth: motion(truth), trueEvents: events, fps: fps)
    XCTAssertEqual(e.inPlayFrames, 99)  // frame 150 is seen by one camera only
    XCTAssertEqual(e.inPlayCoverage, 97.0 / 99.0, accuracy: 1e-12)
    XCTAssertEqual(e.outOfPlayFrames, 10)
    XCTAssertEqual(e.outOfPlayRate, 10.0 / 108.0, accuracy: 1e-12)
  }

  /// In-play figures count only events inside true rallies; the all-events figures count everything.
  func testEventEvaluationSeparatesInPlayEvents() {
    let truth = [
      MatchEvent(type: .rallyStart, frame: 100, time: 0), hit(100, x: -1.5, by: "P1"), bounce(120, x: 0.7),
      bounce(150, x: 3, floor: true), MatchEvent(type: .rallyEnd, frame: 150, time: 0),
      bounce(180, x: 4, floor: true),  // the dead ball bouncing away
    ]
    let detected = [hit(101, x: -1.5, by: "P1"), bounce(119, x: 0.7), bounce(151, x: 3, floor: true), bounce(210, x: 5, floor: true)]
    let e = EventEvaluation(detected: detected, truth: truth)
    XCTAssertEqual(e.types["bounce"]!.recall, 2.0 / 3.0, accuracy: 1e-12)
    XCTAssertEqual(e.types["bounce"]!.missedFrames, [180])
    XCTAssertEqual(e.types["bounce"]!.falseFrames, [210])
    XCTAssertEqual(e.types["hit"]!.missedFrames, [])
    XCTAssertEqual(e.inPlayTypes["bounce"]!.recall, 1)
    XCTAssertEqual(e.inPlayTypes["bounce"]!.truth, 2)
    XCTAssertEqual(e.inPlayTypes["hit"]!.precision, 1)
  }
}
