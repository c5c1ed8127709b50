import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `TracksCSV.write(_: MotionModel, to:)` renders the rows as `MotionModel.forEachRow` makes them,
/// without the array of rows: the same bytes as writing `motion.rows`.
final class TracksCSVMotionTests: XCTestCase {
  func testWritingTheModelEqualsWritingItsRows() throws {
    var random = SeededGenerator(seed: 160)
    var points: [TrackPoint] = []
    for frame in 3..<120 {
      for track in ["P2", "P1", "B1"] where Double.random(in: 0..<1, using: &random) > 0.1 {
        for joint in Skeleton.coco17.keypoints where Double.random(in: 0..<1, using: &random) > 0.2 {
          let filled = Double.random(in: 0..<1, using: &random) < 0.1
          points.append(TrackPoint(
            frame: frame, time: Double(frame) / 60, track: track, kind: .player, joint: joint,
            position: SIMD3(random.uniform(-5...5), random.uniform(-5...5), random.uniform(0...2)),
            reprojectionPx: filled ? -1 : random.uniform(0...9), views: filled ? 0 : Int.random(in: 2...4, using: &random)))
        }
      }
      if frame % 3 != 0 {
        points.append(TrackPoint(
          frame: frame, time: Double(frame) / 60, track: "ball", kind: .ball, joint: "ball",
          position: SIMD3(random.uniform(-1...1), 0.1, 1), reprojectionPx: 0.5, views: 3))
      }
    }
    let motion = MotionModel(points: points, fps: 60, skeleton: .coco17)
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("tracks.csv")
    try TracksCSV.write(motion, to: url)
    let rows = motion.rows
    XCTAssertGreaterThan(rows.count, 3000)
    let expected = Data(TracksCSV.render(rows).utf8)
    XCTAssertEqual(try Data(contentsOf: url), expected)
    // Written in pieces (here about 1 kB, some 200 of them, a piece boundary falling inside no row):
    // the same bytes, and no temporary file left.
    try TracksCSV.write(motion, to: url, pieceBytes: 1000)
    XCTAssertEqual(try Data(contentsOf: url), expected)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["tracks.csv"])
    var streamed: [TrackPoint] = []
    motion.forEachRow { streamed.append($0) }
    XCTAssertEqual(streamed, rows)
    // And it reads back: a row per present sample, filled rows still filled.
    let back = try TracksCSV.read(from: url)
    XCTAssertEqual(back.count, rows.count)
    XCTAssertEqual(back.filter { $0.reprojectionPx < 0 }.count, rows.filter { $0.reprojectionPx < 0 }.count)
  }
}
