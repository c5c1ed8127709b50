import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// The detector settings: documented defaults, and `withoutFaults` keeps only the pixel noise.
final class NoiseSettingsTests: XCTestCase {
  func testDefaultsAreTheDocumentedOnes() {
    let n = DetectionNoise()
    XCTAssertEqual(n.pixelSigma, 1.5)
    XCTAssertEqual(n.missRate, 0.03)
    XCTAssertEqual(n.swapRate, 0.01)
    XCTAssertEqual(n.outlierRate, 0.01)
    XCTAssertTrue(n.bystander)
    XCTAssertEqual(n.ballPixelSigma, 1.0)
    XCTAssertEqual(n.ballMissRate, 0.08)
    XCTAssertEqual(n.falseBallRate, 0.02)
  }

  func testWithoutFaultsKeepsOnlyThePixelNoise() throws {
    var noisy = DetectionNoise()
    noisy.pixelSigma = 2.5
    noisy.ballPixelSigma = 0.7
    noisy.missRate = 0.4
    let clean = noisy.withoutFaults
    XCTAssertEqual(clean.pixelSigma, 2.5)
    XCTAssertEqual(clean.ballPixelSigma, 0.7)
    XCTAssertEqual(
      [clean.missRate, clean.swapRate, clean.outlierRate, clean.ballMissRate, clean.falseBallRate], [0, 0, 0, 0, 0])
    XCTAssertFalse(clean.bystander)
    XCTAssertEqual(DetectionNoise.none.withoutFaults, .none)

    // In a match: every visible keypoint is reported, within 6σ of its projection, and nobody else.
    let m = try MatchSimulator.simulate(SimulationConfig(seed: 3, duration: 3, noise: clean), sport: tableTennis)
    XCTAssertFalse(m.truth.rows.contains { $0.track == "B1" })
    var keypoints = 0
    for camera in m.match.cameras {
      for (_, people) in m.match.detections[camera.name]!.people {
        XCTAssertLessThanOrEqual(people.count, 2)
        for person in people {
          XCTAssertTrue(person.keypoints.allSatisfy { $0.isDetected || $0 == .missing })
          keypoints += person.keypoints.filter(\.isDetected).count
        }
      }
    }
    XCTAssertEqual(keypoints, m.truth.rows.filter { $0.kind == .player }.map(\.views).reduce(0, +))
  }
}
