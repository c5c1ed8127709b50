import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class TRCWriterTests: XCTestCase {
  func testHeaderRowsAndYUpRoundTrip() throws {
    var points: [TrackPoint] = []
    for f in 10...12 {
      for (j, joint) in Skeleton.coco17.keypoints.enumerated() where !(f == 11 && j == 3) {
        points.append(TrackPoint(frame: f, time: Double(f) / 50, track: "P1", kind: .player, joint: joint,
                                 position: SIMD3(Double(j) * 0.1, 0.5, 1 + Double(f) * 0.01), reprojectionPx: 1, views: 3))
      }
    }
    let text = TRCWriter.render(track: "P1", points: points, skeleton: .coco17, fps: 50, fileName: "P1.trc")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines[0], "PathFileType\t4\t(X/Y/Z)\tP1.trc")
    XCTAssertEqual(lines[2], "50.0\t50.0\t3\t17\tm\t50.0\t10\t3")
    XCTAssertTrue(lines[3].hasPrefix("Frame#\tTime\tnose\t\t\tleft_eye\t\t\t"))
    XCTAssertTrue(lines[4].hasPrefix("\t\tX1\tY1\tZ1\tX2"))
    XCTAssertEqual(lines[5], "")
    let parsed = try TRCWriter.parse(text, file: "P1.trc")
    XCTAssertEqual(parsed.markers, Skeleton.coco17.keypoints)
    // y-up: (x, y, z) → (y, z, x).
    assertClose(parsed.frames[12]!["left_shoulder"]!, SIMD3(0.5, 1.12, 0.5), absolute: 1e-6)
    XCTAssertNil(parsed.frames[11]!["left_ear"], "a missing marker stays empty")
  }
}
