import Foundation
import MatchSceneAssets
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneIO
import MatchScenePipeline
import MatchSceneReconstruction
import MatchSceneSimulation
import TestSupport
import XCTest

/// The analysis works in the venue frame: a match whose calibration world is rotated, shifted or y up
/// gives the same events, score and errors once its `[venue]` table says where the table is.
final class VenueFrameTests: XCTestCase {
  /// The simulated match re-expressed in another world: `newFromOld` maps the simulator's world (which
  /// is the venue) into the new one.
  static func reexpressed(_ simulated: SimulatedMatch, newFromOld: RigidTransform, up: SIMD3<Double>) -> (Match, MotionModel) {
    var match = simulated.match
    let oldFromNew = newFromOld.inverse
    match.cameras = match.cameras.map { camera in
      var c = camera
      c.camFromWorld = camera.camFromWorld * oldFromNew
      return c
    }
    match.worldUp = up
    return (match, simulated.truth.transformed(by: newFromOld))
  }

  static func rotation(axis: SIMD3<Double>, degrees: Double) -> Matrix3 {
    Matrix3.rodrigues(normalize(axis) * degrees * .pi / 180)
  }

  func check(newFromOld: RigidTransform, up: SIMD3<Double>, file: StaticString = #filePath, line: UInt = #line) throws {
    let simulated = MatchPipelineTests.simulated
    let folder = try makeTemporaryFolder()
    let plain = folder.appendingPathComponent("plain"), moved = folder.appendingPathComponent("moved")
    try MatchPipelineTests.writeMatch(simulated.match, to: plain)
    var (match, truth) = Self.reexpressed(simulated, newFromOld: newFromOld, up: up)
    // The venue as match.toml gives it: the table's centre on the floor, its long axis, up.
    match.venue = VenueFrame(venueFromWorld: newFromOld.inverse, source: .given)
    try MatchPipelineTests.writeMatch(match, to: moved)

    let a = try MatchPipeline().run(plain)
    let b = try MatchPipeline().run(moved)
    XCTAssertEqual(b.venue.source, .given, file: file, line: line)
    XCTAssertEqual(a.events.count, b.events.count, file: file, line: line)
    XCTAssertGreaterThan(a.events.count, 8, file: file, line: line)
    for (x, y) in zip(a.events, b.events) {
      XCTAssertEqual(x.type, y.type, file: file, line: line)
      XCTAssertEqual(x.frame, y.frame, file: file, line: line)
      XCTAssertEqual(x.track, y.track, file: file, line: line)
      XCTAssertEqual(x.side, y.side, file: file, line: line)
      XCTAssertEqual(x.surface, y.surface, file: file, line: line)
      if let p = x.position, let q = y.position {
        let expected = newFromOld.apply(p)
        XCTAssertLessThan(length(expected - q), 1e-4, "\(x.type) at \(x.frame)", file: file, line: line)
      }
    }
    XCTAssertEqual(a.scores.map(\.winner), b.scores.map(\.winner), file: file, line: line)
    XCTAssertEqual(a.scores.map(\.score), b.scores.map(\.score), file: file, line: line)
    XCTAssertEqual(a.scores.map(\.frame), b.scores.map(\.frame), file: file, line: line)
    XCTAssertEqual(a.playerIDs, b.playerIDs, file: file, line: line)
    // Per-joint errors against each world's own truth: the same to 10 µm (the robust refinement stops at
    // steps under 30 µm, so the last digits depend on the coordinates it works in).
    let ea = TrackEvaluation(estimate: a.motion, truth: simulated.truth)
    let eb = TrackEvaluation(estimate: b.motion, truth: truth)
    XCTAssertEqual(ea.identitySwitches, eb.identitySwitches, file: file, line: line)
    for (joint, s) in ea.perJoint {
      XCTAssertEqual(s.mean, try XCTUnwrap(eb.perJoint[joint]).mean, accuracy: 1e-5, joint, file: file, line: line)
    }
    XCTAssertEqual(ea.ball.mean, eb.ball.mean, accuracy: 1e-5, file: file, line: line)
  }

  func testRotatedAndShiftedWorld() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    try check(
      newFromOld: RigidTransform(rotation: Self.rotation(axis: SIMD3(0, 0, 1), degrees: 30), translation: SIMD3(2.4, -1.8, 0)),
      up: SIMD3(0, 0, 1))
  }

  func testYUpWorld() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    // (x, y, z) → (x, z, −y): the old up (z) is the new y.
    let yUp = Matrix3(rowMajor: [1, 0, 0, 0, 0, 1, 0, -1, 0])
    try check(
      newFromOld: RigidTransform(rotation: yUp * Self.rotation(axis: SIMD3(0, 0, 1), degrees: -20), translation: SIMD3(1, 0.5, -2)),
      up: SIMD3(0, 1, 0))
  }

  /// Without `[venue]`, a world whose table is not at its origin gets a warning, not invented events.
  func testMisplacedTableWarnsInsteadOfInventingEvents() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    let folder = try makeTemporaryFolder().appendingPathComponent("moved")
    let (match, _) = Self.reexpressed(
      MatchPipelineTests.simulated,
      newFromOld: RigidTransform(rotation: Self.rotation(axis: SIMD3(0, 0, 1), degrees: 30), translation: SIMD3(2.4, -1.8, 0)),
      up: SIMD3(0, 0, 1))
    try MatchPipelineTests.writeMatch(match, to: folder)
    let result = try MatchPipeline().run(folder)
    // No table events nor points; only what needs no table: the ball's rests and the rallies they end.
    XCTAssertEqual(Set(result.events.map(\.type)).subtracting([.ballAtRest, .rallyStart, .rallyEnd]), [])
    let warning = try XCTUnwrap(result.diagnostics.first { $0.severity == .warning && $0.description.contains("locate-venue") })
    XCTAssertTrue(warning.description.contains("[venue]"), warning.description)
    XCTAssertGreaterThan(result.ballFrames, 500, "the ball is still reported where it was seen")
  }

  func testVenueTableRoundTrips() throws {
    let venue = try XCTUnwrap(VenueFrame(up: SIMD3(0, 1, 0), origin: SIMD3(1, 0, -2), headingDegrees: 30))
    var config = MatchConfig()
    config.venue = venue
    config.players = ["P1": "Ana", "P2": "Ben"]
    let back = try MatchConfig.parse(config.render(), file: "match.toml")
    let v = try XCTUnwrap(back.venue)
    XCTAssertLessThan(length(v.origin - SIMD3(1, 0, -2)), 1e-12)
    XCTAssertLessThan(length(v.up - SIMD3(0, 1, 0)), 1e-12)
    XCTAssertEqual(v.headingDegrees, 30, accuracy: 1e-9)
    XCTAssertEqual(back.players, ["P1": "Ana", "P2": "Ben"])
    for bad in ["[venue]\norigin = [0, 0, 0]\n", "[venue]\norigin = [0, 0]\nheading = 3\n",
      "[venue]\norigin = [0, 0, 0]\nlong_axis = [0, 0, 1]\n", "[venue]\norigin = [0, 0, 0]\nheading = 1\nlong_axis = [1, 0, 0]\n"]
    {
      XCTAssertThrowsError(try MatchConfig.parse(bad, file: "match.toml")) { error in
        XCTAssertTrue("\(error)".contains("match.toml: [venue."), "\(error)")
      }
    }
  }
}

/// `locate-venue --corners`: the table's corners clicked in camera images (here: projected from the
/// true table with 1.5 px of click noise) put the venue within 1 cm and 0.5° from two cameras, in any
/// world.
final class TableCornersTests: XCTestCase {
  func testCornersLocateTheVenueInAnyWorld() throws {
    try requireTier(.integration)
    let simulated = MatchPipelineTests.simulated
    let table = try XCTUnwrap(try SportSpec.builtIn("table-tennis").tableGeometry())
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map {
      SIMD3($0.0 * table.length / 2, $0.1 * table.width / 2, table.surfaceHeight)
    }
    var rng = SeededGenerator(seed: 11)
    func gaussian() -> Double {
      let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
      return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
    let yUp = Matrix3(rowMajor: [1, 0, 0, 0, 0, 1, 0, -1, 0])
    let worlds: [(String, RigidTransform, SIMD3<Double>)] = [
      ("turned 30° and moved 3 m", RigidTransform(rotation: VenueFrameTests.rotation(axis: SIMD3(0, 0, 1), degrees: 30), translation: SIMD3(2.4, -1.8, 0)), SIMD3(0, 0, 1)),
      ("y up", RigidTransform(rotation: yUp * VenueFrameTests.rotation(axis: SIMD3(0, 0, 1), degrees: -20), translation: SIMD3(1, 0.5, -2)), SIMD3(0, 1, 0)),
    ]
    for (label, newFromOld, up) in worlds {
      let (match, _) = VenueFrameTests.reexpressed(simulated, newFromOld: newFromOld, up: up)
      for cameraCount in [1, 2] {
        let folder = try makeTemporaryFolder()
        try CalibrationTOML.write(match.cameras, to: folder.appendingPathComponent("calibration.toml"))
        var text = "# the table's top corners, clicked\n"
        for camera in match.cameras.prefix(cameraCount) {
          // Clicked starting at another corner in every world, counter-clockwise: the order is found.
          let pixels = (0..<4).map { k in camera.project(newFromOld.apply(corners[(k + 1) % 4]))! }
          let noisy = pixels.map { SIMD2($0.x + 1.5 * gaussian(), $0.y + 1.5 * gaussian()) }
          text += "[\(camera.name)]\ncorners = [" + noisy.map { "[\($0.x), \($0.y)]" }.joined(separator: ", ") + "]\n"
        }
        try text.write(to: folder.appendingPathComponent("corners.toml"), atomically: true, encoding: .utf8)
        let run = try runMatchScene([
          "locate-venue", folder.path, "--corners", folder.appendingPathComponent("corners.toml").path, "--calibration",
          folder.appendingPathComponent("calibration.toml").path,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let venue = try XCTUnwrap(try MatchConfig.parse(run.stdout, file: "locate-venue output").venue, run.stdout)
        let trueOrigin = newFromOld.apply(.zero)
        let trueAxis = newFromOld.rotation * SIMD3(1, 0, 0)
        let centreError = length(venue.origin - trueOrigin)
        let headingError = acos(min(1, abs(dot(venue.longAxis, trueAxis)))) * 180 / .pi
        print("TableCornersTests \(label), \(cameraCount) camera(s): centre \(centreError * 100) cm, heading \(headingError)°")
        // One camera sees the table's depth least well: within 5 cm; two cameras within 1 cm.
        XCTAssertLessThan(centreError, cameraCount == 1 ? 0.05 : 0.01, "\(label), \(cameraCount) camera(s): \(run.stdout)")
        XCTAssertLessThan(headingError, 0.5, "\(label), \(cameraCount) camera(s): \(run.stdout)")
        XCTAssertLessThan(acos(min(1, dot(venue.up, up))) * 180 / .pi, 0.5, "\(label): up")
      }
    }
  }
}
