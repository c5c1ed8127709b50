import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport
import XCTest

/// The library pipeline on simulated matches: accuracy, who is who, whole outputs.
final class MatchPipelineTests: XCTestCase {
  /// A 12 s default-noise match (bystander included) written as a match folder.
  static let simulated: SimulatedMatch = try! MatchSimulator.simulate(
    SimulationConfig(seed: 3, duration: 12), sport: try! SportSpec.builtIn("table-tennis"))

  static func writeMatch(_ match: Match, to folder: URL) throws {
    try MatchFolder.write(match, to: folder, frames: match.frameRange!)
  }

  func testPipelineReconstructsASimulatedMatch() throws {
    let folder = try makeTemporaryFolder()
    let matchFolder = folder.appendingPathComponent("match")
    try Self.writeMatch(Self.simulated.match, to: matchFolder)
    let result = try MatchPipeline().run(matchFolder)

    // Who is who: the two players, and the bystander as someone else.
    XCTAssertEqual(result.playerIDs, ["P1", "P2"])
    XCTAssertEqual(result.personIDs, ["B1"])
    let evaluation = TrackEvaluation(estimate: result.motion, truth: Self.simulated.truth)
    XCTAssertEqual(evaluation.playerMatches["P1"], "P1", evaluation.summary)
    XCTAssertEqual(evaluation.playerMatches["P2"], "P2", evaluation.summary)
    XCTAssertEqual(evaluation.playerMatches["B1"], "B1", evaluation.summary)
    // Accuracy after the full chain (default faults: 1.5 px noise, misses, swaps, outliers).
    XCTAssertLessThan(evaluation.players.mean, 0.008, evaluation.summary)
    XCTAssertEqual(evaluation.identitySwitches, 0, evaluation.summary)
    XCTAssertLessThan(evaluation.ball.median, 0.004, evaluation.summary)
    let events = EventEvaluation(
      detected: result.events, truth: Self.simulated.events, trackMap: evaluation.playerMatches,
      visibleFrames: Set(Self.simulated.truth.rows.filter { $0.kind == .ball && $0.views >= 2 }.map(\.frame)))
    let bounces = try XCTUnwrap(events.inPlayTypes["bounce"]), hits = try XCTUnwrap(events.inPlayTypes["hit"])
    XCTAssertGreaterThanOrEqual(bounces.recall, 0.95, events.summary)
    XCTAssertGreaterThanOrEqual(hits.recall, 0.95, events.summary)
    XCTAssertEqual(result.venue.source, .assumed)

    // The output folder holds exactly this run's files.
    let out = folder.appendingPathComponent("out")
    try result.write(to: out)
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    XCTAssertEqual(
      files, [".matchscene-output", "events.json", "match.c3d", "match.json", "report.json", "scene.glb", "score.json", "tracks.csv", "trc", "views.csv"])
    // The manifest says how to read the folder back and what made it.
    let output = try MatchOutput.open(out)
    XCTAssertTrue(output.hasManifestFile)
    XCTAssertEqual(try output.skeleton, .coco17)
    XCTAssertEqual(output.manifest.fps, result.motion.fps)
    XCTAssertEqual(output.manifest.sport, "table-tennis")
    XCTAssertEqual(output.manifest.frames?.range, result.frames)
    XCTAssertEqual(output.venue.source, result.venue.source)
    assertClose(output.venue.venueFromWorld.translation, result.venue.venueFromWorld.translation, absolute: 1e-12)
    assertClose(output.venue.up, result.venue.up, absolute: 1e-12)
    XCTAssertEqual(output.manifest.options["analysis"], .bool(true))
    XCTAssertEqual(output.manifest.options["viewGateSigmas"], .number(5))
    XCTAssertEqual(output.manifest.inputHash, try MatchOutput.hash(folder: matchFolder))
    XCTAssertEqual(output.manifest.tool, MatchManifest.currentTool)
    let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    XCTAssertEqual(Set(rows.filter { $0.track == "B1" }.map(\.kind)), [.person])
    XCTAssertEqual(Set(rows.filter { $0.track.hasPrefix("P") }.map(\.kind)), [.player])
  }

  /// `sport` in match.toml, with no `fps`, gives the sport's own default frame rate.
  func testMatchTomlSportSetsTheDefaultFrameRate() throws {
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try Self.writeMatch(Self.simulated.match, to: folder)
    let toml = folder.appendingPathComponent("match.toml")
    var config = try MatchConfig.read(from: toml)
    config.sport = "tennis"
    config.fps = nil
    try config.write(to: toml)
    var options = PipelineOptions()
    options.analysis = false
    options.frames = 0...150  // tracks shorter than 0.5 s (60 frames at 120 fps) are dropped
    let result = try MatchPipeline(options: options).run(folder)
    XCTAssertEqual(result.sport.id, "tennis")
    XCTAssertEqual(result.motion.fps, try SportSpec.builtIn("tennis").defaultFPS)
    XCTAssertEqual(result.motion.fps, 120)
  }

  /// The motion model's row view is what tracks.csv holds, in its order.
  func testMotionModelRowsRoundTrip() throws {
    let motion = Self.simulated.truth
    let rows = motion.rows
    XCTAssertEqual(rows.count, motion.tracks.reduce(0) { $0 + $1.samples.filter(\.isPresent).count })
    let back = MotionModel(points: rows, fps: motion.fps, skeleton: motion.skeleton)
    XCTAssertEqual(back.rows, rows)
    let p1 = try XCTUnwrap(motion.track("P1"))
    let wrist = try XCTUnwrap(motion.skeleton.index(of: .rightWrist))
    let row = try XCTUnwrap(rows.first { $0.track == "P1" && $0.joint == "right_wrist" && $0.frame == 100 })
    XCTAssertEqual(p1.position(joint: wrist, frame: 100), row.position)
  }

  func testJointRolesFromDetectorNames() {
    XCTAssertEqual(JointRole.named("left_wrist"), .leftWrist)
    XCTAssertEqual(JointRole.named("LWrist"), .leftWrist)
    XCTAssertEqual(JointRole.named("RBigToe"), .rightBigToe)
    XCTAssertEqual(JointRole.named("Hip"), .midHip)
    XCTAssertEqual(JointRole.named("MidHip"), .midHip)
    XCTAssertNil(JointRole.named("left_pinky"))
    XCTAssertNil(JointRole.named("mouth_left"))
    let custom = Skeleton(
      name: "paddle", keypoints: ["head", "LHand", "RHand", "pelvis"], bones: [("head", "pelvis")],
      roles: [.leftWrist: "LHand", .rightWrist: "RHand"])
    XCTAssertEqual(custom.wrists, [1, 2])
    XCTAssertEqual(Skeleton.body25.index(of: .rightWrist), 4)
    XCTAssertEqual(Skeleton.coco17.torso, [5, 6, 11, 12])
  }
}

/// The calibration checks itself on the match: a camera knocked out of place is named, and
/// `refineCalibration` puts it back.
final class CalibrationPipelineTests: XCTestCase {
  func testAKnockedCameraIsNamedAndRefinedBack() throws {
    try requireTier(.integration)  // slow in a debug build: bundle adjustment of a whole rig at -O0
    let simulated = MatchPipelineTests.simulated
    var match = simulated.match
    let truth = match.cameras[2]
    // 1° about an oblique axis and 3 cm: tens of pixels at the players.
    let knock = RigidTransform(
      rotation: Matrix3.rodrigues(normalize(SIMD3(0.3, -0.8, 0.5)) * (1.0 * .pi / 180)), translation: SIMD3(0.02, -0.015, 0.015))
    match.cameras[2].camFromWorld = knock * truth.camFromWorld
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try MatchPipelineTests.writeMatch(match, to: folder)

    var options = PipelineOptions()
    options.analysis = false
    let checked = try MatchPipeline(options: options).run(folder)
    let warning = try XCTUnwrap(checked.diagnostics.first { $0.severity == .warning && $0.description.contains("disagrees") })
    XCTAssertTrue(warning.description.contains(truth.name), warning.description)
    XCTAssertEqual(checked.calibrationCheck?.flaggedNames, [truth.name])

    options.refineCalibration = true
    let refined = try MatchPipeline(options: options).run(folder)
    let camera = try XCTUnwrap(refined.cameras.first { $0.name == truth.name })
    let rotationError = (camera.camFromWorld.rotation * truth.camFromWorld.rotation.transposed).rodriguesVector
    XCTAssertLessThan(length(rotationError) * 180 / .pi, 0.05, "rotation back within 0.05°")
    XCTAssertLessThan(length(camera.worldFromCam.translation - truth.worldFromCam.translation), 0.005, "position back within 5 mm")
    // Every camera is refined, the trusted ones holding the world frame (`holdWorldFrame`): they moved by
    // no more than the estimate's own spread (measured: ≤ 0.015°, ≤ 0.8 mm).
    assertCamerasHeld(refined.cameras, against: simulated.match.cameras, except: truth.name)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try refined.write(to: out)
    let written = try CalibrationTOML.read(from: out.appendingPathComponent("calibration-refined.toml"))
    XCTAssertEqual(written.map(\.name), refined.cameras.map(\.name))
    let figures = try XCTUnwrap(refined.report?.calibration?.first { $0.name == truth.name })
    XCTAssertTrue(figures.flagged)
    XCTAssertLessThan(try XCTUnwrap(figures.refinedMedianPx), figures.medianPx / 3)
  }
}
