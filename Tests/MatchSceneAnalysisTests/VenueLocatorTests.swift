import Foundation
import MatchSceneAssets
@testable import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneIO
import MatchSceneSimulation
import TestSupport
import XCTest

@testable import MatchSceneAnalysis
@testable import MatchSceneBallPlay

/// `VenueLocator` on a simulated match re-expressed in other worlds: its true ball
/// plus noise (σ 3 mm per axis, 5 % of frames missed), rotated about up and moved, or stood y up.
final class VenueLocatorTests: XCTestCase {
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)
  let fps = 60.0

  /// The true ball of a simulated match (the simulator's world is the venue frame), with noise.
  func noisyBall(seed: UInt64, duration: Double = 30, sigma: Double = 0.003, missed: Double = 0.05) throws -> [Int: SIMD3<Double>] {
    let config = SimulationConfig(seed: seed, duration: duration)
    let match = try MatchSimulator.simulate(config, sport: try SportSpec.builtIn("table-tennis"))
    var rng = SeededGenerator(seed: seed &+ 1000)
    var ball: [Int: SIMD3<Double>] = [:]
    for p in match.truth.rows where p.kind == .ball {
      if rng.chance(missed) { continue }
      ball[p.frame] = p.position + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    }
    return ball
  }

  /// A world in which the venue is turned `degrees` about up and its table centre moved by `shift`;
  /// `yUp` stands the result y up (world y = venue z).
  func worldFromVenue(degrees: Double, shift: SIMD3<Double>, yUp: Bool = false) -> RigidTransform {
    let turn = Matrix3.rodrigues(SIMD3(0, 0, degrees * Double.pi / 180))
    var w = RigidTransform(rotation: turn, translation: shift)
    if yUp {
      // x stays, venue z becomes world y (and venue y world −z): a right-handed y-up world.
      w = RigidTransform(rotation: Matrix3(rowMajor: [1, 0, 0, 0, 0, 1, 0, -1, 0]), translation: .zero) * w
    }
    return w
  }

  /// The heading error between two long axes (either sign), degrees.
  func headingError(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let angle = VenueLocator.angle(a, b) * 180 / Double.pi
    return min(angle, 180 - angle)
  }

  struct Recovery {
    var centreError: Double
    var headingError: Double
    var upError: Double
    var estimate: VenueEstimate
  }

  func recover(_ ball: [Int: SIMD3<Double>], worldFromVenue w: RigidTransform, upHint: SIMD3<Double>) throws -> Recovery {
    let world = ball.mapValues { w.apply($0) }
    var options = VenueLocatorOptions()
    options.bagging = ProcessInfo.processInfo.environment["VENUE_NO_BAGGING"] == nil
    let estimate = try VenueLocator(table: table, options: options).locate(ball: world, fps: fps, upHint: upHint)
    let trueCentre = w.apply(SIMD3(0, 0, table.surfaceHeight))
    return Recovery(
      centreError: length(estimate.tableCentre - trueCentre),
      headingError: headingError(estimate.longAxis, w.rotation * SIMD3(1, 0, 0)),
      upError: VenueLocator.angle(estimate.up, w.rotation * SIMD3(0, 0, 1)) * 180 / Double.pi, estimate: estimate)
  }

  /// The demo's match (seed 1, 30 s) turned 30° about up with its table centre moved 3 m, and the same
  /// stood y up: the same estimate in both worlds, within what its 17 table bounces allow. They stay
  /// 6–15 cm inside the table's edges and leave the heading free by several degrees (measured: centre
  /// 9.1 cm, heading 3.9°, reported σ 12.5 cm across and 8.5°; the 1 cm and 0.5° are out of
  /// reach of the ball alone in 30 s), so the errors are checked against the reported uncertainties.
  func testLocatesTheTableInAnotherWorld() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    let ball = try noisyBall(seed: 1)
    let shift = SIMD3<Double>(1.8, -2.4, 0)  // 3 m
    var centres: [SIMD3<Double>] = []
    for yUp in [false, true] {
      let w = worldFromVenue(degrees: 30, shift: shift, yUp: yUp)
      let r = try recover(ball, worldFromVenue: w, upHint: yUp ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
      print(String(format: "venue seed 1%@: centre %.1f cm, heading %.2f°, up %.2f°, %d bounces, σ centre %.1f/%.1f cm, σ heading %.2f°",
                   yUp ? " y up" : "", 100 * r.centreError, r.headingError, r.upError, r.estimate.tableBounces,
                   100 * r.estimate.centreSigma.x, 100 * r.estimate.centreSigma.y, r.estimate.headingSigma))
      XCTAssertLessThan(r.centreError, 0.15)
      XCTAssertLessThan(r.centreError, 3 * length(r.estimate.centreSigma) + 0.01)
      XCTAssertLessThan(r.headingError, 8)
      XCTAssertLessThan(r.headingError, 3 * r.estimate.headingSigma + 0.5)
      XCTAssertLessThan(r.upError, 0.2)
      centres.append(r.estimate.venueFromWorld.apply(w.apply(SIMD3(0, 0, table.surfaceHeight))))
      XCTAssertGreaterThanOrEqual(r.estimate.tableBounces, 12)
      XCTAssert(r.estimate.venueFromWorld.rotation.isRotation())
      // The venue frame maps the true table centre near (0, 0, 0.76), within the table's top.
      assertClose(centres.last!, SIMD3(0, 0, table.surfaceHeight), absolute: 0.15)
      XCTAssert(r.estimate.tomlTable.contains("[venue]"))
      XCTAssert(r.estimate.tomlTable.contains("long_axis = ["))
    }
    // The world does not change the estimate.
    assertClose(centres[0], centres[1], absolute: 1e-6)
  }

  /// A wrong up hint (10° off) is corrected from the ball's gravity, and the angle reported.
  func testCorrectsAnUpHintFromGravity() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    let ball = try noisyBall(seed: 2)
    let w = worldFromVenue(degrees: -50, shift: SIMD3(-3, 0, 0.2))
    let hint = Matrix3.rodrigues(SIMD3(10 * Double.pi / 180, 0, 0)) * SIMD3(0, 0, 1)
    let r = try recover(ball, worldFromVenue: w, upHint: hint)
    XCTAssertLessThan(r.upError, 0.5)
    assertClose(r.estimate.upHintAngle, 10, absolute: 0.5)
    XCTAssertLessThan(r.centreError, 3 * length(r.estimate.centreSigma) + 0.01)
    XCTAssertLessThan(r.headingError, 3 * r.estimate.headingSigma + 0.5)
  }

  /// A world whose z points down, given as z up (the default hint): up is found from the ball's fall.
  func testFindsUpWhenTheHintIsUpsideDown() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    let ball = try noisyBall(seed: 4, duration: 20)
    let w = RigidTransform(rotation: Matrix3.rodrigues(SIMD3(Double.pi, 0, 0)), translation: SIMD3(0.5, 1, 2))
    let r = try recover(ball, worldFromVenue: w, upHint: SIMD3(0, 0, 1))
    XCTAssertLessThan(r.upError, 0.3)
    assertClose(r.estimate.upHintAngle, 180, absolute: 0.3)
    XCTAssertLessThan(r.centreError, 3 * length(r.estimate.centreSigma) + 0.01)
  }

  /// Not enough evidence fails with a reason: a ball lying still, a ball seen in a few frames, one
  /// free flight with no bounce.
  func testFailsCleanlyWithoutBounces() {
    let locator = VenueLocator(table: table)
    var rng = SeededGenerator(seed: 7)
    let still = Dictionary(uniqueKeysWithValues: (0..<300).map { ($0, SIMD3(0.3, 0.2, 0.78) + 0.002 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())) })
    XCTAssertThrowsError(try locator.locate(ball: still, fps: fps)) { error in
      guard let e = error as? VenueLocatorError else { return XCTFail("\(error)") }
      switch e {
      case .noFlights, .tooFewTableBounces: break
      default: XCTFail("\(e)")
      }
      XCTAssertFalse(e.description.isEmpty)
    }
    XCTAssertThrowsError(try locator.locate(ball: [1: .zero, 2: .zero], fps: fps)) { error in
      XCTAssertEqual(error as? VenueLocatorError, .tooFewObservations(found: 2, needed: 8))
    }
    // One toss: up 3 m/s, down again, no contact.
    let model = BallModel(drag: 0.126)
    let toss = Dictionary(uniqueKeysWithValues: (0..<36).map { f in
      (f, model.advance(SIMD3(0, 0, 1), SIMD3(1, 0, 3), by: Double(f) / fps).0)
    })
    XCTAssertThrowsError(try locator.locate(ball: toss, fps: fps)) { error in
      guard case .tooFewTableBounces(let found, _, _)? = error as? VenueLocatorError else { return XCTFail("\(error)") }
      XCTAssertEqual(found, 0)
    }
    XCTAssertThrowsError(try locator.locate(ball: toss, fps: fps, upHint: .zero))
  }

  /// The table's plane is the densest bounce height, unless that one has a cluster the table's height
  /// above it (then it was the floor: a ball settling on the floor after every rally).
  func testTablePlaneAboveAFloorWithMoreBounces() throws {
    let locator = VenueLocator(table: table)
    let floor = (0..<12).map { 0.02 + 0.002 * Double($0 % 3) }, top = (0..<6).map { 0.78 + 0.003 * Double($0 % 2) }
    let plane = try XCTUnwrap(locator.tablePlane(floor + top))
    assertClose(plane.height, 0.7815, absolute: 0.002)
    XCTAssertEqual(plane.count, 6)
    XCTAssertEqual(try XCTUnwrap(locator.tablePlane(floor)).count, 12)
    XCTAssertNil(locator.tablePlane([]))
  }

  /// The ball rows of a reconstruction, by frame.
  func testBallOfAReconstruction() {
    let points = [
      TrackPoint(frame: 3, time: 0.05, track: "P1", kind: .player, joint: "nose", position: SIMD3(1, 1, 1), reprojectionPx: 0, views: 2),
      TrackPoint(frame: 3, time: 0.05, track: "ball", kind: .ball, joint: "ball", position: SIMD3(0, 0, 1), reprojectionPx: 0, views: 2),
    ]
    XCTAssertEqual(VenueLocator.ball(in: MotionModel(points: points, fps: 60, skeleton: .coco17)), [3: SIMD3(0, 0, 1)])
  }

  /// The frame built from up, origin and long axis follows the `[venue]` convention.
  func testVenueFrameConvention() throws {
    let v = try XCTUnwrap(VenueFrame.venueFromWorld(up: SIMD3(0, 2, 0), origin: SIMD3(1, 0, 2), longAxis: SIMD3(0, 0.5, -1)))
    XCTAssert(v.rotation.isRotation())
    assertClose(v.apply(SIMD3(1, 0, 2)), .zero, absolute: 1e-12)
    assertClose(v.rotation * SIMD3(0, 1, 0), SIMD3(0, 0, 1), absolute: 1e-12)
    assertClose(v.rotation * SIMD3(0, 0, -1), SIMD3(1, 0, 0), absolute: 1e-12)
    XCTAssertNil(VenueFrame.venueFromWorld(up: SIMD3(0, 0, 1), origin: .zero, longAxis: SIMD3(0, 0, 3)))
    assertClose(VenueFrame.longAxis(up: SIMD3(0, 0, 1), heading: 90), SIMD3(0, 1, 0), absolute: 1e-12)
  }

  /// Measurement on files (not a check): `VENUE_REPORT=a/tracks.csv:b/tracks.csv` prints the errors
  /// on each file's ball (whose world is the venue) turned 30° and moved 3 m, and stood y up.
  func testReportOnFiles() throws {
    guard let list = ProcessInfo.processInfo.environment["VENUE_REPORT"] else { throw XCTSkip("VENUE_REPORT not set") }
    for path in list.split(separator: ":").map(String.init) {
      let points = try TracksCSV.read(from: URL(fileURLWithPath: path))
      var ball = Dictionary(points.filter { $0.kind == .ball }.map { ($0.frame, $0.position) }, uniquingKeysWith: { a, _ in a })
      // VENUE_NOISE=σ adds Gaussian noise (metres per axis) to the ball.
      if let sigma = ProcessInfo.processInfo.environment["VENUE_NOISE"].flatMap(Double.init) {
        var rng = SeededGenerator(seed: 5)
        ball = ball.mapValues { $0 + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) }
      }
      for yUp in [false, true] {
        let w = worldFromVenue(degrees: 30, shift: SIMD3(1.8, -2.4, 0), yUp: yUp)
        do {
          let r = try recover(ball, worldFromVenue: w, upHint: yUp ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
          let c = r.estimate.venueFromWorld.apply(w.apply(SIMD3(0, 0, table.surfaceHeight))) - SIMD3(0, 0, table.surfaceHeight)
          print(String(format: "REPORT %@%@: centre %.1f cm (%.1f, %.1f, %.1f), heading %.2f°, up %.3f°, bounces %d, net %d, σ centre %.1f/%.1f cm, σ heading %.2f°, σ up %.3f°, floor %d",
                       path, yUp ? " y-up" : "", 100 * r.centreError, 100 * c.x, 100 * c.y, 100 * c.z, r.headingError, r.upError,
                       r.estimate.tableBounces, r.estimate.netContacts, 100 * r.estimate.centreSigma.x, 100 * r.estimate.centreSigma.y,
                       r.estimate.headingSigma, r.estimate.upSigma, r.estimate.floorBounces))
          if ProcessInfo.processInfo.environment["VENUE_TOML"] != nil { print(r.estimate.tomlTable) }
        } catch {
          print("REPORT \(path): \(error)")
        }
      }
    }
  }
}

