import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// The true rallies: legal serves, shots over the net onto the opponent's half, one bounce before each
/// return, a ball that comes to rest at each rally's end, and events consistent with the trajectory.
final class RallyTests: XCTestCase {
  let top = 0.76, radius = 0.02, netTop = 0.76 + 0.1525
  let fps = 60.0

  /// A second, all-nets match: every rally's last shot goes into the net.
  static let netMatch: SimulatedMatch = try! MatchSimulator.simulate(
    spinless(SimulationConfig(seed: 4, duration: 24, noise: .none, shotsPerRally: 2...3, netProbability: 1)), sport: tableTennis)

  var matches: [SimulatedMatch] { [sharedMatch, leftHandedMatch, Self.netMatch] }

  func eventsByRally(_ m: SimulatedMatch) -> [Int: [MatchEvent]] {
    Dictionary(grouping: m.events.filter { $0.rally != nil }, by: { $0.rally! })
  }

  func ballTrack(_ m: SimulatedMatch) -> [Int: SIMD3<Double>] {
    Dictionary(uniqueKeysWithValues: m.truth.rows.filter { $0.kind == .ball }.map { ($0.frame, $0.position) })
  }

  func side(of track: String) -> TableSide { track == "P1" ? .negativeX : .positiveX }
  func opponent(of track: String) -> String { track == "P1" ? "P2" : "P1" }

  func testServesBounceOnTheServersHalfThenTheReceivers() throws {
    var serves = 0
    for m in matches {
      for (rally, events) in eventsByRally(m) {
        guard let start = events.first(where: { $0.type == .rallyStart }) else { continue }
        let server = try XCTUnwrap(start.track)
        let contacts = events.filter { ($0.type == .bounce || $0.type == .net) && $0.time > start.time }
        guard contacts.count >= 2 || events.last?.type != .rallyEnd else {
          XCTFail("rally \(rally) ended before the serve landed")
          continue
        }
        guard contacts.count >= 2 else { continue }  // cut by the end of the match
        XCTAssertEqual(contacts[0].surface, .table)
        XCTAssertEqual(contacts[0].side, side(of: server), "rally \(rally): first bounce on the server's half")
        XCTAssertEqual(contacts[1].surface, .table)
        XCTAssertEqual(contacts[1].side, side(of: opponent(of: server)), "rally \(rally): then the receiver's half")
        let hit = try XCTUnwrap(events.first { $0.type == .hit })
        XCTAssertEqual(hit.frame, start.frame)
        let all = m.events
        XCTAssertLessThan(
          try XCTUnwrap(all.firstIndex(of: start)), try XCTUnwrap(all.firstIndex(of: hit)), "rally_start first")
        XCTAssertEqual(hit.track, server)
        serves += 1
      }
    }
    XCTAssertGreaterThanOrEqual(serves, 6)
  }

  func testEveryShotClearsTheNetAndLandsOnTheOpponentsHalf() throws {
    var checked = 0, nets = 0
    for m in matches {
      let ball = ballTrack(m)
      for (rally, events) in eventsByRally(m) {
        let hits = events.filter { $0.type == .hit }
        for (i, hit) in hits.enumerated() {
          let hitter = try XCTUnwrap(hit.track)
          let isServe = i == 0
          let next = i + 1 < hits.count ? hits[i + 1].time : .infinity
          let contacts = events.filter {
            ($0.type == .bounce || $0.type == .net) && $0.time > hit.time && $0.time < next
          }
          guard let landing = contacts.dropFirst(isServe ? 1 : 0).first else { continue }  // cut short
          if landing.type == .net {
            XCTAssertEqual(i, hits.count - 1, "rally \(rally): only the last shot may end in the net")
            XCTAssertEqual(landing.track, hitter)
            nets += 1
            continue
          }
          XCTAssertEqual(landing.surface, .table, "rally \(rally) shot \(i + 1)")
          XCTAssertEqual(landing.side, side(of: opponent(of: hitter)), "rally \(rally) shot \(i + 1)")
          // From the truth: where the ball crosses x = 0 it is above the tape.
          let from = isServe ? contacts[0].frame : hit.frame
          var crossed = false
          for f in from..<landing.frame {
            guard let a = ball[f], let b = ball[f + 1], a.x * b.x <= 0, a.x != b.x else { continue }
            let z = a.z + (b.z - a.z) * (-a.x / (b.x - a.x))
            XCTAssertGreaterThan(z - radius, netTop - 0.002, "rally \(rally) shot \(i + 1) clears the net")
            crossed = true
          }
          XCTAssertTrue(crossed, "rally \(rally) shot \(i + 1) crosses the net plane")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 15)
    XCTAssertGreaterThanOrEqual(nets, 2, "the all-nets match has net endings")
  }

  func testEachReturnFollowsExactlyOneBounceOnTheReceiversHalf() throws {
    for m in matches {
      for (rally, events) in eventsByRally(m) {
        let hits = events.filter { $0.type == .hit }
        XCTAssertLessThanOrEqual(hits.count, 10)
        for i in 1..<max(1, hits.count) {
          let between = events.filter { $0.type == .bounce && $0.time > hits[i - 1].time && $0.time < hits[i].time }
          let receiver = try XCTUnwrap(hits[i].track)
          XCTAssertNotEqual(receiver, hits[i - 1].track, "rally \(rally): players alternate")
          let onReceiver = between.filter { $0.side == side(of: receiver) }
          XCTAssertEqual(onReceiver.count, 1, "rally \(rally) return \(i)")
          XCTAssertEqual(between.count, i == 1 ? 2 : 1, "rally \(rally) return \(i)")
          XCTAssertGreaterThanOrEqual(hits[i].time - hits[i - 1].time, 0.3)
        }
      }
    }
  }

  /// A rally ends when it is decided (a bounce no good rally allows, or the ball at rest or gone); the
  /// ball then still comes to rest, lies still for half a second and is picked up.
  func testRallyEndsWhenDecidedThenTheBallRestsAndIsPickedUp() throws {
    var ends = 0, atBounce = 0
    for m in matches {
      let ball = ballTrack(m)
      let starts = m.events.filter { $0.type == .rallyStart }
      let bounceFrames = Set(m.events.filter { $0.type == .bounce }.map(\.frame))
      for end in m.events where end.type == .rallyEnd {
        ends += 1
        let p = try XCTUnwrap(end.position)
        let outside = abs(p[0]) > 7 || abs(p[1]) > 3.5
        guard !outside else { continue }
        // The first frame from the end on where the ball lies still (the truth repeats its position),
        // unless it rolls out of the area first.
        guard let rest = (end.frame...end.frame + Int(20 * fps)).first(where: { f in ball[f] != nil && ball[f + 1] == ball[f] }) else {
          let lastFrame = try XCTUnwrap((end.frame...end.frame + Int(20 * fps)).last { ball[$0] != nil })
          let last = ball[lastFrame]!
          let matchEnded = lastFrame == ball.keys.max()
          XCTAssertTrue(
            abs(last.x) > 6.9 || abs(last.y) > 3.4 || matchEnded,
            "no rest after the end at frame \(end.frame): the ball left the area or the recording ended")
          XCTAssertTrue(bounceFrames.contains(end.frame), "decided by a bounce")
          continue
        }
        if bounceFrames.contains(end.frame) {
          atBounce += 1
        } else {
          XCTAssertLessThanOrEqual(rest - end.frame, 1, "an end not at a bounce is the ball coming to rest")
        }
        let still = try XCTUnwrap(ball[rest])
        XCTAssertTrue(abs(still.z - radius) < 1e-9 || abs(still.z - top - radius) < 1e-9, "rests on a surface")
        for f in rest + 1...rest + 30 { XCTAssertEqual(ball[f], still, "frame \(f)") }
        XCTAssertNil(ball[rest + 32])
        // Then the ball is gone until the next rally's server holds it, 2–4 s later.
        if let next = starts.first(where: { $0.time > end.time }) {
          let gone = try XCTUnwrap((rest...next.frame).first { ball[$0] == nil })
          let back = try XCTUnwrap((gone...next.frame).first { ball[$0] != nil })
          let gap = Double(back - gone) / fps
          XCTAssertGreaterThanOrEqual(gap, 2 - 0.05)
          XCTAssertLessThanOrEqual(gap, 4 + 0.1)
        }
      }
    }
    XCTAssertGreaterThanOrEqual(ends, 4)
    XCTAssertGreaterThanOrEqual(atBounce, 1, "some rallies are decided by a bounce, before the ball rests")
  }

  func testEventsAgreeWithTheTruthTrajectory() throws {
    for m in matches {
      let ball = ballTrack(m)
      for e in m.events {
        XCTAssertEqual(e.frame, Int((e.time * fps).rounded()))
        let position = try XCTUnwrap(e.position)
        let truth = try XCTUnwrap(ball[e.frame], "\(e.type) at frame \(e.frame) has a ball")
        switch e.type {
        case .hit, .rallyStart:
          // Strokes happen at frame instants.
          assertClose(truth, position, absolute: 1e-12)
          let after = try XCTUnwrap(ball[e.frame + 1])
          assertClose(length(after - truth) * fps, try XCTUnwrap(e.speed), relative: 0.1)
        case .bounce:
          let speed = try XCTUnwrap(e.speed)
          XCTAssertLessThan(length(truth - position), speed / fps + 0.02)
          if e.surface == .table {
            assertClose(position.z, top + radius, absolute: 1e-9)
            XCTAssertLessThanOrEqual(abs(position.x), 1.37)
            XCTAssertLessThanOrEqual(abs(position.y), 0.7625)
            XCTAssertEqual(e.side, TableSide(x: position.x))
          } else {
            XCTAssertEqual(e.surface, .floor)
            assertClose(position.z, radius, absolute: 1e-9)
          }
        case .net:
          assertClose(abs(position.x), radius, absolute: 1e-9)
          XCTAssertLessThan(position.z - radius, netTop)
        case .rallyEnd, .point, .claim, .zoneEnter, .zoneExit, .ballAtRest:
          break
        }
      }
    }
  }

  func testTruthHasPlayersEveryFrameAndTheBallOnlyInPlay() throws {
    let m = sharedMatch
    let frames = 20 * 60
    XCTAssertEqual(m.truth.frames, 0...(frames - 1))
    XCTAssertEqual(m.truth.rows.filter { $0.track == "P1" }.count, frames * 17)
    XCTAssertEqual(m.truth.rows.filter { $0.track == "B1" && $0.kind == .person }.count, frames * 17)
    let ballFrames = m.truth.rows.filter { $0.track == "ball" }
    XCTAssertGreaterThan(ballFrames.count, frames / 4)
    XCTAssertLessThan(ballFrames.count, frames)
    XCTAssertTrue(ballFrames.allSatisfy { $0.kind == .ball && $0.joint == "ball" })
    XCTAssertTrue(m.truth.rows.allSatisfy { $0.reprojectionPx == 0 && (0...4).contains($0.views) })
    XCTAssertEqual(m.truth.tracks.map(\.id), ["B1", "P1", "P2", "ball"], "people by id, then the ball")
    XCTAssertEqual(m.match.sport, "table-tennis")
    XCTAssertEqual(m.match.fps, 60)
    XCTAssertEqual(m.match.skeleton, .coco17)
  }
}
