import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneSimulation
import XCTest

/// A missing keypoint empties only the angles that use it, in the series and in angles.csv.
final class MissingKeypointTests: XCTestCase {
  func testMissingKneeEmptiesOnlyItsAngles() throws {
    let simulated = try MatchSimulator.simulate(SimulationConfig(seed: 3, duration: 4, noise: .none), sport: tableTennis)
    var motion = simulated.truth
    let p1 = try XCTUnwrap(motion.tracks.firstIndex { $0.id == "P1" })
    let knee = try XCTUnwrap(motion.skeleton.index(of: .rightKnee))
    let frame = 100
    motion.tracks[p1][joint: knee, frame: frame] = MotionSample(position: .zero, reprojectionPx: 0, views: 0, state: .missing)
    let full = try AngleAnalysis.run(simulated.truth, events: simulated.events, uncertainty: AngleUncertainty(metresPerPixel: 0.004))
    let gap = try AngleAnalysis.run(motion, events: simulated.events, uncertainty: AngleUncertainty(metresPerPixel: 0.004))
    let before = full.first { $0.track == "P1" }!, after = gap.first { $0.track == "P1" }!
    let uses: Set<FormAngle> = [.kneeFlexionRight, .hipFlexionRight]
    for a in FormAngle.allCases {
      if uses.contains(a) {
        XCTAssert(after.angle(a, frame: frame).isNaN, "\(a.rawValue) uses the right knee")
      } else {
        XCTAssertEqual(after.angle(a, frame: frame), before.angle(a, frame: frame), "\(a.rawValue)")
        XCTAssertEqual(after.sd(a, frame: frame), before.sd(a, frame: frame), accuracy: 1e-9, "\(a.rawValue)")
      }
    }
    XCTAssertEqual(after.measure(.racketHandSpeed, frame: frame), before.measure(.racketHandSpeed, frame: frame))
    XCTAssert(after.measure(.comZ, frame: frame).isNaN, "the centre of mass needs every keypoint")
    // angles.csv keeps the row, with the two cells empty.
    let rows = AnglesCSV.render(gap).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    let header = rows[0]
    let row = try XCTUnwrap(rows.first { $0.count > 2 && $0[0] == "\(frame)" && $0[2] == "P1" })
    XCTAssertEqual(row[header.firstIndex(of: "knee_flexion_r")!], "")
    XCTAssertEqual(row[header.firstIndex(of: "hip_flexion_r")!], "")
    XCTAssertNotEqual(row[header.firstIndex(of: "elbow_flexion_r")!], "")
    XCTAssertNotEqual(row[header.firstIndex(of: "knee_flexion_l")!], "")
    XCTAssertEqual(rows.count - 1, full.reduce(0) { $0 + $1.frameCount }, "no row lost")
  }
}
