import Foundation
import MatchSceneCore
import MatchSceneForm
import XCTest

/// angles.csv and the OpenSim .mot files, read back.
final class AngleWriterTests: XCTestCase {
  func testAnglesCSVAndMOTRoundTrip() throws {
    let (_, truth) = try noisyFixture.angles()
    let csv = AnglesCSV.render(truth).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = csv[0].map(String.init)
    XCTAssertEqual(header.count, 4 + 2 * FormAngle.allCases.count + FormMeasure.allCases.count)
    XCTAssertEqual(csv.count - 1, truth.reduce(0) { $0 + $1.frameCount }, "one row per frame and player")
    let column = try XCTUnwrap(header.firstIndex(of: "elbow_flexion_r"))
    let row = csv[1 + 2 * 100]  // frame 100, P1 (players in track order)
    XCTAssertEqual(row[2], "P1")
    XCTAssertEqual(Double(row[column])!, truth[0].angle(.elbowFlexionRight, frame: 100), accuracy: 0.0005)

    let mot = OpenSimMOT.render(truth[1]).split(separator: "\n").map(String.init)
    XCTAssertEqual(mot[1], "version=1")
    XCTAssertEqual(mot[2], "nRows=\(truth[1].frameCount)")
    XCTAssertEqual(mot[3], "nColumns=\(1 + FormAngle.allCases.count)")
    XCTAssertEqual(mot[4], "inDegrees=yes")
    XCTAssertEqual(mot[5], "endheader")
    let labels = mot[6].split(separator: "\t").map(String.init)
    XCTAssertEqual(labels.first, "time")
    XCTAssertEqual(mot.count, 7 + truth[1].frameCount)
    let last = mot.last!.split(separator: "\t")
    XCTAssertEqual(last.count, labels.count)
    let frame = truth[1].frames.upperBound
    XCTAssertEqual(Double(last[0])!, Double(frame) / truth[1].fps, accuracy: 1e-6)
    // Columns that no OpenSim model coordinate is named (Rajagopal 2015, gait2392 and Pose2Sim's models
    // use hip_flexion_r, knee_angle_r, elbow_flex_r, arm_flex_r, lumbar_extension …).
    XCTAssertTrue(labels.dropFirst().allSatisfy { $0.hasPrefix("form_") }, "\(labels)")
    for coordinate in ["hip_flexion_r", "hip_flexion_l", "knee_angle_r", "elbow_flex_r", "knee_flexion_r", "elbow_flexion_r"] {
      XCTAssertFalse(labels.contains(coordinate), coordinate)
    }
    let k = try XCTUnwrap(labels.firstIndex(of: "form_trunk_rotation"))
    XCTAssertEqual(Double(last[k])!, truth[1].angle(.trunkRotation, frame: frame), accuracy: 0.0001)
  }
}
