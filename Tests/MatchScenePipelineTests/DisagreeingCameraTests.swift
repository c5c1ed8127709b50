import Foundation
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneIO
import MatchScenePipeline
import TestSupport
import XCTest

/// A rig with one camera whose calibration is off: with default settings its pose is
/// corrected for the run, so its error over all views stays near the other cameras' (and the players'
/// accuracy does not suffer); the corrected calibration is written only when asked for.
final class DisagreeingCameraTests: XCTestCase {
  func testDefaultRunCorrectsTheCameraThatDisagrees() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let simulated = MatchPipelineTests.simulated
    var match = simulated.match
    let knocked = 1
    // 0.7° about an oblique axis and 2 cm: a systematic offset of ~20–40 px at the players.
    let knock = RigidTransform(
      rotation: Matrix3.rodrigues(normalize(SIMD3(-0.5, 0.4, 0.7)) * (0.7 * .pi / 180)), translation: SIMD3(-0.01, 0.02, 0.01))
    match.cameras[knocked].camFromWorld = knock * match.cameras[knocked].camFromWorld
    let name = match.cameras[knocked].name
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    try MatchPipelineTests.writeMatch(match, to: folder)

    var options = PipelineOptions()
    options.analysis = false
    let corrected = try MatchPipeline(options: options).run(folder)
    // As given: neither the camera's pose nor the detector's offsets per joint corrected (the latter
    // would absorb part of the camera's offset too: 14.8 mm as given with them removed).
    options.correctDisagreeingCameras = false
    options.removeDetectorBias = false
    let asGiven = try MatchPipeline(options: options).run(folder)

    func medians(_ result: MatchResult) throws -> [String: Double] {
      let cameras = try XCTUnwrap(result.report?.cameras)
      return Dictionary(uniqueKeysWithValues: try cameras.map { ($0.name, try XCTUnwrap($0.allViewsReprojectionPx).median) })
    }
    let after = try medians(corrected)
    let before = try medians(asGiven)
    let othersAfter = after.filter { $0.key != name }.values.max() ?? 0
    let othersBefore = before.filter { $0.key != name }.values.max() ?? 0
    func accuracy(_ r: MatchResult) -> Double {
      TrackEvaluation(estimate: r.motion, truth: simulated.truth).players.mean
    }
    print(
      "all-views medians, as given: \(before.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2f", $0.value))" }); "
        + "corrected: \(after.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2f", $0.value))" }); "
        + "players \(accuracy(asGiven) * 1000) → \(accuracy(corrected) * 1000) mm")

    // The camera is named either way; only the default run corrected it.
    XCTAssertEqual(corrected.calibrationCheck?.flaggedNames, [name])
    XCTAssertEqual(asGiven.calibrationCheck?.flaggedNames, [name])
    XCTAssertTrue(corrected.calibrationCorrectedInternally)
    XCTAssertNotNil(corrected.calibrationRefinement)
    XCTAssertNil(asGiven.calibrationRefinement)
    // As given, the camera's views sit far from the reconstruction; corrected, near the others'.
    XCTAssertGreaterThan(try XCTUnwrap(before[name]), 3 * othersBefore)
    XCTAssertLessThan(try XCTUnwrap(after[name]), 1.5 * othersAfter + 0.5)
    // Players (no smoothing: analysis off): 24.2 mm as given, 9.4 mm corrected.
    XCTAssertLessThan(accuracy(corrected), 0.5 * accuracy(asGiven))
    XCTAssertLessThan(accuracy(corrected), 0.012)
    // The cameras the check trusted hold the world frame: they moved by no more than the estimate's spread.
    assertCamerasHeld(corrected.cameras, against: simulated.match.cameras, except: name)
    // The world is the calibration's: the trusted cameras are exactly as given, nothing is levelled, and
    // through them the error is the same as through the cameras used.
    for (used, given) in zip(corrected.cameras, match.cameras) where given.name != name {
      XCTAssertLessThan(length(used.center - given.center), 1e-9, given.name)
      XCTAssertLessThan(length((used.camFromWorld.rotation * given.camFromWorld.rotation.transposed).rodriguesVector), 1e-9, given.name)
    }
    XCTAssertEqual(corrected.report?.worldFrame, .calibration)
    XCTAssertNotEqual(corrected.report?.floor?.levelled, true)
    for camera in try XCTUnwrap(corrected.report?.cameras) {
      let throughGiven = try XCTUnwrap(camera.givenCalibrationAllViewsReprojectionPx).median
      if camera.name == name {
        XCTAssertGreaterThan(throughGiven, 3 * othersAfter, camera.name)
      } else {
        XCTAssertEqual(throughGiven, try XCTUnwrap(camera.allViewsReprojectionPx).median, accuracy: 1e-6, camera.name)
      }
    }

    // The cameras the outputs were reconstructed with are written beside them (overlay draws with them).
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try corrected.write(to: out)
    let written = try CalibrationTOML.read(from: out.appendingPathComponent("calibration-refined.toml"))
    XCTAssertEqual(written.map(\.name), corrected.cameras.map(\.name))
    XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8).contains("refinedMedianPx"))
  }
}
