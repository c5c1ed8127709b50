import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO
import TestSupport
import XCTest

/// Reading a `reconstruct` output folder for form analysis.
final class FormInputTests: XCTestCase {
  /// `TracksCSV.readMotion` builds the same model as `MotionModel(points:)` over `TracksCSV.read`, for
  /// the kinds asked for, and its errors name the file and line.
  func testReadMotionMatchesTheRowView() throws {
    let out = FormCommandTests.outFolder
    let url = out.appendingPathComponent("tracks.csv")
    let rows = try TracksCSV.read(from: url)
    let fps = noisyFixture.result.motion.fps
    let expected = MotionModel(points: rows.filter { $0.kind != .person }, fps: fps, skeleton: .coco17)
    let motion = try TracksCSV.readMotion(from: url, fps: fps, skeleton: .coco17, kinds: [.player, .ball])
    XCTAssertEqual(motion.frames, expected.frames)
    XCTAssertEqual(motion.tracks.map(\.id), expected.tracks.map(\.id))
    XCTAssertEqual(motion.tracks.map(\.id), ["P1", "P2", "ball"])
    for (a, b) in zip(motion.tracks, expected.tracks) {
      XCTAssertEqual(a.kind, b.kind)
      XCTAssertEqual(a.samples, b.samples, a.id)
    }
    let all = try TracksCSV.readMotion(from: url, fps: fps, skeleton: .coco17)
    XCTAssertEqual(all.tracks.map(\.id), MotionModel(points: rows, fps: fps, skeleton: .coco17).tracks.map(\.id))

    let bad = out.deletingLastPathComponent().appendingPathComponent("bad.csv")
    try Data((TracksCSV.header + "\n0,0,P1,player,nose,1,2,x,0.5,2\n").utf8).write(to: bad)
    XCTAssertThrowsError(try TracksCSV.readMotion(from: bad, fps: fps, skeleton: .coco17)) { error in
      XCTAssert("\(error)".contains("bad.csv") && "\(error)".contains("z 'x' is not a finite number"), "\(error)")
    }
  }

  /// A folder without tracks.csv or report.json is refused with the file named.
  func testMissingFilesAreNamed() throws {
    let empty = try makeTemporaryFolder()
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("tracks.csv"), "\($0)") }
    try Data((TracksCSV.header + "\n").utf8).write(to: empty.appendingPathComponent("tracks.csv"))
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("report.json"), "\($0)") }
  }
}
