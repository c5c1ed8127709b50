import MatchSceneCore
@testable import MatchSceneGeometry
import TestSupport
import XCTest

/// Focal lengths refined only when the data supports them (`CalibrationRefinement.refineChoosingFocal`,
/// the Bayesian information criterion): a camera whose focal length is 1.5 % off gets it back; a camera
/// whose focal length is right keeps it (the extra parameter does not pay for itself).
final class FocalChoiceTests: XCTestCase {
  typealias Scene = CalibrationRefinementTests.Scene

  static func choose(_ scene: Scene) throws -> (CalibrationRefinementResult, FocalChoice) {
    let (points, observations) = try CalibrationRefinementTests.triangulate(scene, cameras: scene.perturbedCameras)
    var options = CalibrationRefinementOptions()
    options.fixedCameras = Set(scene.truth.indices.filter { $0 != scene.perturbed })
    return try CalibrationRefinement.refineChoosingFocal(
      cameras: scene.perturbedCameras, points: points, observations: observations, options: options)
  }

  func testAFocalErrorTheDataShowsIsRefined() throws {
    try requireTier(.integration)  // slow in a debug build: bundle adjustment of a whole rig at -O0
    var scene = CalibrationRefinementTests.makeScene(degrees: 0.5, metres: 0.02, seed: 7)
    scene.perturbedCameras[2].fx *= 1.015
    scene.perturbedCameras[2].fy *= 1.015
    let (result, choice) = try Self.choose(scene)
    print("focal off 1.5 %: ΔBIC \(choice.bicDelta), fx \(result.cameras[2].fx) (truth \(scene.truth[2].fx))")
    XCTAssertTrue(choice.refinedFocal)
    XCTAssertLessThan(choice.bicDelta, 0)
    assertClose(result.cameras[2].fx, scene.truth[2].fx, absolute: 3)
    let error = CalibrationRefinementTests.poseError(result.cameras[2], scene.truth[2])
    XCTAssertLessThan(error.degrees, 0.05)
    XCTAssertLessThan(error.metres, 0.01)
  }

  func testARightFocalLengthIsKept() throws {
    try requireTier(.integration)  // slow in a debug build: bundle adjustment of a whole rig at -O0
    let scene = CalibrationRefinementTests.makeScene(degrees: 0.5, metres: 0.02, seed: 8)
    let (result, choice) = try Self.choose(scene)
    print("focal right: ΔBIC \(choice.bicDelta), fx \(result.cameras[2].fx)")
    XCTAssertFalse(choice.refinedFocal)
    XCTAssertGreaterThan(choice.bicDelta, 0)
    XCTAssertEqual(result.cameras[2].fx, scene.perturbedCameras[2].fx)
    let error = CalibrationRefinementTests.poseError(result.cameras[2], scene.truth[2])
    XCTAssertLessThan(error.degrees, 0.05)
    XCTAssertLessThan(error.metres, 0.005)
  }

  func testTheCriterionPaysForEachParameter() {
    // The same cost: the extra parameters only cost (k ln n); a cost halved over 1000 residuals pays.
    XCTAssertEqual(CalibrationRefinement.bicDelta(poseCost: 100, focalCost: 100, residuals: 1000, extraParameters: 2), 2 * log(1000), accuracy: 1e-9)
    XCTAssertLessThan(CalibrationRefinement.bicDelta(poseCost: 100, focalCost: 50, residuals: 1000, extraParameters: 2), 0)
    XCTAssertEqual(CalibrationRefinement.bicDelta(poseCost: 0, focalCost: 50, residuals: 1000, extraParameters: 2), .infinity)
  }
}
