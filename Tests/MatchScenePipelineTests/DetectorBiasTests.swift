import MatchSceneAssets
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneReconstruction
import MatchSceneSimulation
import TestSupport
import XCTest

@testable import MatchScenePipeline

/// A detector's systematic offset per camera and joint (`DetectorBias`): recovered from residuals with
/// known offsets, not invented where there are none, and removed from a simulated match whose detector
/// has one (the harder simulator's `jointBiasPx` with occlusion drops) to the players' benefit.
final class DetectorBiasTests: XCTestCase {
  /// 4 cameras × 17 joints, offsets N(0, 2 px) per axis, 400 residuals each with 1.5 px noise.
  static func residuals(biasPx: Double, seed: UInt64) -> (samples: [[Int: [SIMD2<Double>]]], truth: [[SIMD2<Double>]]) {
    var rng = SeededGenerator(seed: seed)
    var samples: [[Int: [SIMD2<Double>]]] = []
    var truth: [[SIMD2<Double>]] = []
    for _ in 0..<4 {
      var byJoint: [Int: [SIMD2<Double>]] = [:]
      var offsets: [SIMD2<Double>] = []
      for j in 0..<17 {
        let b = SIMD2(biasPx * rng.gaussian(), biasPx * rng.gaussian())
        offsets.append(b)
        byJoint[j] = (0..<400).map { _ in b + SIMD2(1.5 * rng.gaussian(), 1.5 * rng.gaussian()) }
      }
      samples.append(byJoint)
      truth.append(offsets)
    }
    return (samples, truth)
  }

  func testKnownOffsetsAreRecovered() {
    let (samples, truth) = Self.residuals(biasPx: 2, seed: 1)
    let bias = DetectorBias.fit(samples, names: ["a", "b", "c", "d"], minResiduals: 30)
    XCTAssertTrue(bias.isSignificant)
    XCTAssertEqual(bias.sigmaPx, 2, accuracy: 0.5)
    // The median of 400 samples of σ 1.5 px: standard error 0.094 px per axis.
    for (c, name) in ["a", "b", "c", "d"].enumerated() {
      for j in 0..<17 {
        let offset = try! XCTUnwrap(bias.offsets[name]?[j])
        XCTAssertLessThan(((offset - truth[c][j]) * (offset - truth[c][j])).sum().squareRoot(), 0.5, "\(name) joint \(j)")
      }
    }
  }

  func testNoOffsetIsNotSignificant() {
    let (samples, _) = Self.residuals(biasPx: 0, seed: 2)
    let bias = DetectorBias.fit(samples, names: ["a", "b", "c", "d"], minResiduals: 30)
    XCTAssertFalse(bias.isSignificant)
    XCTAssertLessThan(bias.sigmaPx, 0.1)
  }

  func testTooFewResidualsGiveNoOffset() {
    let samples: [[Int: [SIMD2<Double>]]] = [[0: Array(repeating: SIMD2(3, 3), count: 10)]]
    let bias = DetectorBias.fit(samples, names: ["a"], minResiduals: 30)
    XCTAssertTrue(bias.offsets.isEmpty)
    XCTAssertFalse(bias.isSignificant)
  }

  func testRemovedOffsetsMoveOnlyDetectedKeypoints() {
    let camera = Camera.lookingAt(
      .zero, from: SIMD3(5, 0, 2), name: "a", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400)
    let person = PersonDetection2D(keypoints: [Keypoint2D(x: 100, y: 200, confidence: 0.9), .missing])
    let match = Match(fps: 60, cameras: [camera], detections: ["a": CameraDetections(people: [0: [person]])])
    let bias = DetectorBias(offsets: ["a": [0: SIMD2(1.5, -2), 1: SIMD2(4, 4)]], sigmaPx: 2, chiSquare: 100, components: 4)
    let out = bias.removed(from: match).people(camera: "a", frame: 0)[0].keypoints
    XCTAssertEqual(out[0], Keypoint2D(x: 98.5, y: 202, confidence: 0.9))
    XCTAssertEqual(out[1], .missing)
  }

  /// End to end on a simulated match whose detector has a bias per joint (σ 2 px) and drops occluded
  /// keypoints: the offsets are found and named in a note, and removing them lowers the players' error;
  /// the default simulator (no bias) is left as it is.
  func testASimulatedDetectorBiasIsRemoved() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    var config = SimulationConfig(seed: 3, duration: 8)
    config.noise.jointBiasPx = 2
    config.noise.occlusionDropRate = 0.6
    let simulated = try MatchSimulator.simulate(config, sport: try SportSpec.builtIn("table-tennis"))
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try MatchPipelineTests.writeMatch(simulated.match, to: folder)
    var options = PipelineOptions()
    options.analysis = false
    let removed = try MatchPipeline(options: options).run(folder)
    options.removeDetectorBias = false
    let kept = try MatchPipeline(options: options).run(folder)
    func accuracy(_ r: MatchResult) -> Double { TrackEvaluation(estimate: r.motion, truth: simulated.truth).players.mean }
    print("players with the detector bias \(accuracy(kept) * 1000) mm, removed \(accuracy(removed) * 1000) mm")
    XCTAssertTrue(removed.diagnostics.contains { $0.description.contains("systematic offset per camera") })
    XCTAssertLessThan(accuracy(removed), accuracy(kept) - 0.0003)

    let plainFolder = try makeTemporaryFolder().appendingPathComponent("plain")
    try MatchPipelineTests.writeMatch(MatchPipelineTests.simulated.match, to: plainFolder)
    var plainOptions = PipelineOptions()
    plainOptions.analysis = false
    let plain = try MatchPipeline(options: plainOptions).run(plainFolder)
    XCTAssertFalse(plain.diagnostics.contains { $0.description.contains("systematic offset per camera") })
  }
}
