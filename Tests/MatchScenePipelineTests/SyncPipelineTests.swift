import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport
import XCTest

/// The pipeline on cameras that were not synchronised: it finds their clocks, says so, and
/// reconstructs about as well as with synchronised cameras; `[frame_offsets]` overrides.
final class SyncPipelineTests: XCTestCase {
  static let sport = try! SportSpec.builtIn("table-tennis")

  func simulate(unsync: Int) throws -> SimulatedMatch {
    var config = SimulationConfig(seed: 3, duration: 8)
    config.unsync.maxFrames = unsync
    return try MatchSimulator.simulate(config, sport: Self.sport)
  }

  func testUnsynchronisedCamerasReconstructWithin10PercentOfSynchronised() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let folder = try makeTemporaryFolder()
    var options = PipelineOptions()
    options.analysis = false
    var errors: [(players: Double, ball: Double)] = []
    for unsync in [0, 30] {
      let m = try simulate(unsync: unsync)
      let matchFolder = folder.appendingPathComponent("match\(unsync)")
      try m.writeMatchFolder(to: matchFolder)
      let config = try MatchConfig.read(from: matchFolder.appendingPathComponent("match.toml"))
      XCTAssertEqual(config.frameOffsets.isEmpty, unsync > 0, "hidden offsets are not in match.toml")
      let result = try MatchPipeline(options: options).run(matchFolder)
      let evaluation = TrackEvaluation(estimate: result.motion, truth: m.truth)
      errors.append((evaluation.players.mean, evaluation.ball.mean))
      let sync = result.report?.sync
      if unsync == 0 {
        XCTAssertNil(sync, "[frame_offsets] given: nothing estimated")
        continue
      }
      let figures = try XCTUnwrap(sync)
      XCTAssertEqual(figures.count, 3)
      for f in figures {
        let truth = try XCTUnwrap(m.clocks.first { $0.camera == f.estimate.camera })
        XCTAssertTrue(f.appliedFrames)
        XCTAssertEqual(f.estimate.offset, truth.offset, accuracy: 0.1)
      }
      XCTAssertTrue(result.diagnostics.contains { $0.description.contains("not synchronised") })
      XCTAssertEqual(evaluation.identitySwitches, 0, evaluation.summary)
    }
    XCTAssertLessThan(errors[1].players, 1.1 * errors[0].players, "\(errors)")
    XCTAssertLessThan(errors[1].ball, 1.1 * errors[0].ball, "\(errors)")
  }

  func testFrameOffsetsInMatchTomlOverrideAndTheFlagSwitchesEstimationOff() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let m = try simulate(unsync: 30)
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try m.writeMatchFolder(to: folder)
    var options = PipelineOptions()
    options.analysis = false
    options.frames = 40...100
    options.estimateSync = false
    XCTAssertNil(try MatchPipeline(options: options).run(folder).report?.sync)
    options.estimateSync = true
    let configURL = folder.appendingPathComponent("match.toml")
    var config = try MatchConfig.read(from: configURL)
    for c in m.clocks { config.frameOffsets[c.camera] = c.frames }
    try config.write(to: configURL)
    let result = try MatchPipeline(options: options).run(folder)
    XCTAssertNil(result.report?.sync)
    XCTAssertFalse(result.diagnostics.contains { $0.description.contains("not synchronised") })
  }
}
