import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchScenePipeline
@testable import MatchSceneReconstruction

/// `views.csv` on rigs of any size: cameras 65–70 of a 70-camera rig appear; a rig of up to 64 cameras
/// gets the file of before, byte for byte.
final class ViewsCSVTests: XCTestCase {
  func testSeventyCameras() throws {
    let cameras = (1...70).map { "cam\($0)" }
    var views = ViewsUsed(cameras: cameras)
    var used = [(error: Double, used: Bool)?](repeating: (1, false), count: 70)
    for c in [0, 63, 64, 65, 69] { used[c] = (1, true) }
    views.append(frame: 5, track: "P1", joint: 0, views: used[...])
    views.append(frame: 6, track: "P1", joint: 0, views: [(1, true), (1, true)][...])
    XCTAssertEqual(views.highWordCount, 1)
    XCTAssert(views.uses(row: 0, camera: 69))
    let dir = try makeTemporaryFolder("views70")
    let url = dir.appendingPathComponent("views.csv")
    try views.writeCSV(to: url, skeleton: .coco17)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    XCTAssertEqual(lines[0], "frame,track,joint,mask,cameras,mask1")
    XCTAssertEqual(lines[1], "5,P1,nose,\(UInt64(1) | 1 << 63),cam1+cam64+cam65+cam66+cam70,\(UInt64(1) | 1 << 1 | 1 << 5)")
    XCTAssertEqual(lines[2], "6,P1,nose,3,cam1+cam2,0")
  }

  func testUpTo64CamerasAsBeforeAndNamesQuoted() throws {
    var views = ViewsUsed(cameras: ["a", "b,c", "=d"])
    views.append(frame: 1, track: "P1", joint: 1, views: [(1, true), (1, true), (1, true)][...])
    views.append(frame: 0, track: "P2", joint: 0, views: [(1, true), nil, (1, false)][...])
    let dir = try makeTemporaryFolder("views3")
    let url = dir.appendingPathComponent("views.csv")
    try views.writeCSV(to: url, skeleton: .coco17)
    XCTAssertEqual(
      try String(contentsOf: url, encoding: .utf8),
      "frame,track,joint,mask,cameras\n0,P2,nose,1,a\n1,P1,left_eye,7,\"a+b,c+=d\"\n")
    XCTAssertEqual(views.highMasks, [], "no further words under 65 cameras")
  }
}
