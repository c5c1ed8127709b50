import MatchSceneAssets
import MatchSceneCore
@testable import MatchSceneReconstruction
import MatchSceneSimulation
import TestSupport
import XCTest

/// Cameras' clocks estimated from the detections: whole frames exact, the phase within a
/// tenth of a frame, against the simulator's hidden offsets.
final class CameraSyncTests: XCTestCase {
  static let sport = try! SportSpec.builtIn("table-tennis")

  func simulate(seed: UInt64, unsync: Int, duration: Double = 10) throws -> SimulatedMatch {
    var config = SimulationConfig(seed: seed, duration: duration)
    config.unsync.maxFrames = unsync
    return try MatchSimulator.simulate(config, sport: Self.sport)
  }

  func testOffsetsUpTo30FramesAndTheirPhasesAreRecovered() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    for seed: UInt64 in [4] {
      let m = try simulate(seed: seed, unsync: 30)
      let estimates = try CameraSync().estimate(m.match)
      XCTAssertEqual(estimates.map(\.camera), ["cam2", "cam3", "cam4"])
      for e in estimates {
        let truth = try XCTUnwrap(m.clocks.first { $0.camera == e.camera })
        XCTAssertEqual(e.reference, "cam1")
        XCTAssertTrue(e.decisive, "seed \(seed) \(e)")
        XCTAssertEqual(e.offset, truth.offset, accuracy: 0.1, "seed \(seed) \(e.camera)")
        // Whole frames exact: the estimate is within half a frame of the truth.
        XCTAssertLessThan(abs(Double(e.frames) - truth.offset), 0.6, "seed \(seed) \(e.camera)")
        XCTAssertLessThan(e.uncertaintyFrames, 0.1)
        XCTAssertGreaterThan(e.uncertaintyFrames, 0)
      }
    }
  }

  /// A long match is looked at through a window in its middle (`maxFrames`): here 6 s of a 10 s match,
  /// cut so that a camera's own frames are not those of the reference; the offsets still come out.
  func testAWindowOfTheMatchFindsTheSameOffsets() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let m = try simulate(seed: 4, unsync: 30)
    var options = CameraSyncOptions()
    options.maxFrames = nil
    let whole = try CameraSync(options: options).estimate(m.match)
    options.maxFrames = 360
    let sync = CameraSync(options: options)
    let window = sync.window(m.match, reference: 0)
    let frames = window.detections["cam1"]!.people.keys
    XCTAssertLessThanOrEqual(frames.max()! - frames.min()!, 359, "the reference is cut to the window")
    XCTAssertLessThan(window.detections["cam2"]!.people.count, m.match.detections["cam2"]!.people.count)
    let windowed = try sync.estimate(m.match)
    XCTAssertEqual(windowed.map(\.camera), whole.map(\.camera))
    for (w, e) in zip(windowed, whole) {
      let truth = try XCTUnwrap(m.clocks.first { $0.camera == e.camera })
      XCTAssertTrue(w.decisive, "\(w)")
      XCTAssertEqual(w.frames, e.frames, "\(w.camera): whole frames as from the whole match")
      XCTAssertEqual(w.offset, truth.offset, accuracy: 0.1, "\(w.camera)")
    }
  }

  func testSynchronisedCamerasGiveZeroOffsets() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let m = try simulate(seed: 3, unsync: 0, duration: 4)
    for e in try CameraSync().estimate(m.match) {
      XCTAssertEqual(e.frames, 0, "\(e)")
      XCTAssertLessThan(abs(e.phase), 0.1, "\(e)")
    }
  }

  func testACameraWithoutDetectionsOrTooFewPairsIsLeftOut() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    var m = try simulate(seed: 3, unsync: 0, duration: 2).match
    m.detections["cam3"] = nil
    XCTAssertEqual(try CameraSync().estimate(m).map(\.camera), ["cam2", "cam4"])
    m.detections = ["cam1": m.detections["cam1"]!]
    XCTAssertEqual(try CameraSync().estimate(m).count, 0)
    XCTAssertEqual(try CameraSync().estimate(m, reference: 7).count, 0)
  }

  func testResamplingAtZeroPhaseKeepsTheDetections() throws {
    let d = try simulate(seed: 3, unsync: 0, duration: 1).match.detections["cam1"]!
    XCTAssertEqual(CameraSync.resampled(d, phase: 0), d)
  }
}
