import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

final class TracksCSVTests: XCTestCase {
  let points = [
    TrackPoint(frame: 3, time: 0.05, track: "P1", kind: .player, joint: "nose", position: SIMD3(1.2345674, -0.5, 1.6), reprojectionPx: 1.25, views: 4),
    TrackPoint(frame: 3, time: 0.05, track: "ball", kind: .ball, joint: "ball", position: SIMD3(-0.0000004, 0.1, 0.9), reprojectionPx: 0.0005, views: 3),
    TrackPoint(frame: -1, time: -1.0 / 60, track: "P2", kind: .player, joint: "left_ankle", position: SIMD3(-12.3456785, 0, 2), reprojectionPx: 17, views: 2),
  ]

  func testRendersTheDocumentedColumns() {
    XCTAssertEqual(TracksCSV.render(points), """
      frame,time,track,kind,joint,x,y,z,reproj_px,views
      3,0.050000,P1,player,nose,1.234567,-0.500000,1.600000,1.250,4
      3,0.050000,ball,ball,ball,0.000000,0.100000,0.900000,0.001,3
      -1,-0.016667,P2,player,left_ankle,-12.345679,0.000000,2.000000,17.000,2

      """)
  }

  func testRoundTripWithinAMicrometre() throws {
    var random = SeededGenerator(seed: 9)
    var many = points
    for i in 0..<2000 {
      many.append(TrackPoint(
        frame: i, time: Double(i) / 60, track: "P\(i % 3)", kind: i % 5 == 0 ? .ball : .player, joint: "j\(i % 17)",
        position: SIMD3(random.uniform(-30...30), random.uniform(-30...30), random.uniform(0...10)),
        reprojectionPx: random.uniform(0...20), views: i % 8))
    }
    let url = try makeTemporaryFolder().appendingPathComponent("out/tracks.csv")
    try TracksCSV.write(many, to: url)
    let back = try TracksCSV.read(from: url)
    XCTAssertEqual(back.count, many.count)
    for (a, b) in zip(many, back) {
      XCTAssertEqual(a.frame, b.frame)
      XCTAssertEqual(a.track, b.track)
      XCTAssertEqual(a.kind, b.kind)
      XCTAssertEqual(a.joint, b.joint)
      XCTAssertEqual(a.views, b.views)
      XCTAssertEqual(a.time, b.time, accuracy: 5.0001e-7)
      XCTAssertEqual(a.reprojectionPx, b.reprojectionPx, accuracy: 5.0001e-4)
      for i in 0..<3 { XCTAssertEqual(a.position[i], b.position[i], accuracy: 5.0001e-7) }
    }
  }

  /// A filled row (reprojection error < 0) has reproj_px and views empty, reads back as filled (-1, 0);
  /// files with the former `-1,0` still read the same.
  func testFilledRowsHaveEmptyErrorAndViews() throws {
    let filled = TrackPoint(
      frame: 4, time: 0.066667, track: "P1", kind: .player, joint: "nose", position: SIMD3(1, 2, 3), reprojectionPx: -1, views: 0)
    let text = TracksCSV.render([points[0], filled])
    XCTAssertTrue(text.hasSuffix("\n4,0.066667,P1,player,nose,1.000000,2.000000,3.000000,,\n"), text)
    let back = try TracksCSV.parse(text, file: "t.csv")
    XCTAssertEqual(back.last, filled)
    XCTAssertEqual(back.count, 2)
    let old = try TracksCSV.parse(TracksCSV.header + "\n4,0.066667,P1,player,nose,1,2,3,-1,0\n", file: "old.csv")
    XCTAssertEqual(old, [filled])
    let skeleton = Skeleton(name: "one", keypoints: ["nose"], bones: [])
    let url = try makeTemporaryFolder().appendingPathComponent("tracks.csv")
    try TracksCSV.write([filled], to: url)
    let motion = try TracksCSV.readMotion(from: url, fps: 60, skeleton: skeleton)
    XCTAssertEqual(motion.tracks.first?[joint: 0, frame: 4].state, .filled)
  }

  /// The wide layout: one row per frame (gaps included), six cells per track and joint, filled cells
  /// without error, views and reproj_px, missing ones empty.
  func testWideLayoutHasOneRowPerFrame() {
    let skeleton = Skeleton(name: "two", keypoints: ["nose", "left_ankle"], bones: [])
    let rows = [
      TrackPoint(frame: 1, time: 0, track: "P1", kind: .player, joint: "left_ankle", position: SIMD3(1, 2, 3), reprojectionPx: 0.5, views: 3),
      TrackPoint(frame: 1, time: 0, track: "ball", kind: .ball, joint: "ball", position: SIMD3(0, 0, 1), reprojectionPx: 1, views: 2),
      TrackPoint(frame: 1, time: 0, track: "P1", kind: .player, joint: "nose", position: SIMD3(4, 5, 6), reprojectionPx: -1, views: 0),
      TrackPoint(frame: 3, time: 0, track: "P1", kind: .player, joint: "nose", position: SIMD3(7, 8, 9), reprojectionPx: 2, views: 4),
    ]
    XCTAssertEqual(TracksWideCSV.render(rows, skeleton: skeleton, fps: 50), """
      frame,time,P1_nose_x,P1_nose_y,P1_nose_z,P1_nose_error,P1_nose_views,P1_nose_reproj_px,\
      P1_left_ankle_x,P1_left_ankle_y,P1_left_ankle_z,P1_left_ankle_error,P1_left_ankle_views,P1_left_ankle_reproj_px,\
      ball_x,ball_y,ball_z,ball_error,ball_views,ball_reproj_px
      1,0.020000,4.000000,5.000000,6.000000,,,,1.000000,2.000000,3.000000,0.500,3,0.500,0.000000,0.000000,1.000000,1.000,2,1.000
      2,0.040000,,,,,,,,,,,,,,,,,,
      3,0.060000,7.000000,8.000000,9.000000,2.000,4,2.000,,,,,,,,,,,,

      """)
  }

  func testMalformedRowsNameFileAndLine() {
    let h = TracksCSV.header + "\n"
    assertInputError(try TracksCSV.parse(h + "1,2,3\n", file: "t.csv"), contains: ["t.csv:2: has 3 fields; expected 10"])
    assertInputError(try TracksCSV.parse(h + "\n1,0.1,P1,robot,nose,1,2,3,0.5,2\n", file: "t.csv"), contains: ["t.csv:3: kind 'robot' is not player, person or ball"])
    assertInputError(try TracksCSV.parse(h + "1,0.1,P1,player,nose,1,x,3,0.5,2\n", file: "t.csv"), contains: ["t.csv:2: y 'x' is not a finite number"])
    assertInputError(try TracksCSV.parse(h + "1,0.1,P1,player,nose,1,2,inf,0.5,2\n", file: "t.csv"), contains: ["t.csv:2: z 'inf'"])
    assertInputError(try TracksCSV.parse(h + "1.5,0.1,P1,player,nose,1,2,3,0.5,2\n", file: "t.csv"), contains: ["t.csv:2: frame '1.5' is not an integer"])
    assertInputError(try TracksCSV.parse(h + "1,0.1,P1,player,nose,1,2,3,0.5,-2\n", file: "t.csv"), contains: ["t.csv:2: views '-2'"])
    assertInputError(try TracksCSV.parse("frame,x,y\n", file: "t.csv"), contains: ["t.csv:1: header 'frame,x,y' is not"])
    assertInputError(try TracksCSV.parse("", file: "t.csv"), contains: ["t.csv:1: empty file"])
  }

  func testFixedPointText() {
    func f(_ x: Double, _ d: Int, trim: Bool = false) -> String { TextBuffer.fixed(x, decimals: d, trimZeros: trim) }
    XCTAssertEqual(f(0, 6), "0.000000")
    XCTAssertEqual(f(-0.0, 6), "0.000000")
    XCTAssertEqual(f(-0.0000004, 6), "0.000000", "no negative zero")
    XCTAssertEqual(f(-0.0000006, 6), "-0.000001")
    XCTAssertEqual(f(0.0005, 3), "0.001", "ties away from zero")
    XCTAssertEqual(f(123456789.1234567, 6), "123456789.123457")
    XCTAssertEqual(f(7, 0), "7")
    XCTAssertEqual(f(1.5, 6, trim: true), "1.5")
    XCTAssertEqual(f(-3, 6, trim: true), "-3")
    XCTAssertEqual(f(0.0000001, 6, trim: true), "0")
    XCTAssertEqual(f(1e20, 6), "1e+20")
    XCTAssertEqual(f(.infinity, 6), "inf")
    var random = SeededGenerator(seed: 1)
    for _ in 0..<10_000 {
      let x = random.uniform(-1000...1000) * pow(10, Double(Int(random.uniform(-6...6))))
      let text = f(x, 6)
      XCTAssertEqual(Double(text)!, x, accuracy: 5.0001e-7 + 1e-15 * abs(x), text)
    }
  }

  func testNumberScanningAgreesWithTheStandardLibrary() {
    var random = SeededGenerator(seed: 2)
    var samples = ["0", "-0", "+3", "1.", ".5", "-.5", "007.250", "1e-7", "-2.5E3", "nan", "inf", "", "-", ".", "1.2.3", "12a",
                   "123456789012345678", "0.1234567890123456789", "9007199254740993", "1e400", "3.0000000000000004"]
    for _ in 0..<5000 {
      samples.append(String(random.uniform(-1e4...1e4)))
      samples.append(TextBuffer.fixed(random.uniform(-100...100), decimals: Int(random.uniform(0...9))))
    }
    for s in samples {
      let scanner = CSVScanner(Array(s.utf8))
      let got = scanner.double(0..<s.utf8.count), expected = Double(s)
      if let expected, expected.isNaN {
        XCTAssertTrue(got?.isNaN == true, s)
      } else {
        XCTAssertEqual(got, expected, "'\(s)'")
      }
    }
    let ints = CSVScanner(Array("12,-7,+3,x,,99999999999999999999".utf8))
    var values: [Int?] = []
    ints.forEachLine { _, fields in values = fields.map { ints.int($0) } }
    XCTAssertEqual(values, [12, -7, 3, nil, nil, nil])
  }
}
