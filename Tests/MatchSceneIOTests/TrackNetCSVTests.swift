import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class TrackNetCSVTests: XCTestCase {
  func testParsesTrackNetOutputWithCandidates() throws {
    let text = "Frame,Visibility,X,Y\n0,1,100.5,200.25\n1,0,0,0\n2,1,10,20\n2,1,30,40\n"
    let balls = try TrackNetCSV.parse(text, file: "ball/cam01.csv")
    XCTAssertEqual(balls[0], [BallDetection2D(x: 100.5, y: 200.25)])
    XCTAssertNil(balls[1], "Visibility 0 is no detection")
    XCTAssertEqual(balls[2], [BallDetection2D(x: 10, y: 20), BallDetection2D(x: 30, y: 40)], "several rows are several candidates")
  }

  func testToleratesHeaderCaseSpacesExtraColumnsAndCRLF() throws {
    let text = " frame , VISIBILITY,x, Y ,Confidence,Notes\r\n5, 1, 12.5 ,7,0.4,fast\r\n6,0,,,,\r\n\r\n7,1,1,2,,\r\n"
    let file = try TrackNetCSV.readFile(try fileWith(text))
    XCTAssertEqual(file.balls[5], [BallDetection2D(x: 12.5, y: 7, confidence: 0.4)])
    XCTAssertNil(file.balls[6])
    XCTAssertEqual(file.balls[7], [BallDetection2D(x: 1, y: 2, confidence: 1)], "an empty confidence is the default 1")
    XCTAssertEqual(file.frames, 5...7, "coverage counts unseen frames too")
  }

  /// A header written with RFC 4180 quotes (`"Frame"`, `"X"`) reads like the plain one.
  func testQuotedHeaderCellsAreUnquoted() throws {
    let text = "\"Frame\",\"Visibility\",\"X\",\"Y\",\"Confidence\",\"note, with comma\"\n3,1,10,20,0.5,\"a, b\"\n"
    let balls = try TrackNetCSV.parse(text, file: "ball/cam01.csv")
    XCTAssertEqual(balls[3], [BallDetection2D(x: 10, y: 20, confidence: 0.5)])
  }

  func fileWith(_ text: String) throws -> URL {
    let url = try makeTemporaryFolder().appendingPathComponent("cam01.csv")
    try writeText(text, to: url)
    return url
  }

  func testMalformedRowsNameFileAndLine() {
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0,1,5,5\n1,1,abc,2\n", file: "ball/cam01.csv"),
                     contains: ["ball/cam01.csv:3: X, Y 'abc', '2' are not finite numbers; expected pixel coordinates"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0,1,5\n", file: "b.csv"),
                     contains: ["b.csv:2: has 3 fields; expected at least 4"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0.5,1,5,5\n", file: "b.csv"),
                     contains: ["b.csv:2: Frame '0.5' is not an integer"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n1,yes,5,5\n", file: "b.csv"),
                     contains: ["b.csv:2: Visibility 'yes' is not a number; expected 0 or 1"])
    assertInputError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n1,1,nan,5\n", file: "b.csv"), contains: ["b.csv:2:", "not finite"])
    assertInputError(try TrackNetCSV.parse("Frame,X,Y\n", file: "b.csv"), contains: ["b.csv:1: header 'frame,x,y' lacks a column"])
    assertInputError(try TrackNetCSV.parse("", file: "b.csv"), contains: ["b.csv:1: empty file"])
  }

  func testWriteOneRowPerFrameAndReadBack() throws {
    let balls: [Int: [BallDetection2D]] = [
      3: [BallDetection2D(x: 812.123456, y: 433.5)], 5: [BallDetection2D(x: 1, y: 2), BallDetection2D(x: 1900.25, y: 1079)],
      9: [BallDetection2D(x: 5, y: 5)],  // outside the frames written
    ]
    let text = TrackNetCSV.render(balls, frames: 2...6)
    XCTAssertEqual(text, "Frame,Visibility,X,Y\n2,0,0,0\n3,1,812.123456,433.5\n4,0,0,0\n5,1,1,2\n5,1,1900.25,1079\n6,0,0,0\n")
    let url = try makeTemporaryFolder().appendingPathComponent("ball/cam02.csv")
    try TrackNetCSV.write(balls, frames: 2...6, to: url)
    let back = try TrackNetCSV.readFile(url)
    XCTAssertEqual(back.balls, balls.filter { $0.key != 9 })
    XCTAssertEqual(back.frames, 2...6)
    XCTAssertEqual(try TrackNetCSV.read(ballFolder: url.deletingLastPathComponent()), ["cam02": back.balls])
  }

  func testConfidencesRoundTripThroughAnExtraColumn() throws {
    var random = SeededGenerator(seed: 5)
    var balls: [Int: [BallDetection2D]] = [:]
    for frame in 0..<50 where frame % 7 != 0 {
      balls[frame] = [BallDetection2D(x: random.uniform(0...1920), y: random.uniform(0...1080), confidence: random.uniform(0.1...1))]
    }
    let text = TrackNetCSV.render(balls, frames: 0...49)
    XCTAssertTrue(text.hasPrefix("Frame,Visibility,X,Y,Confidence\n0,0,0,0,0\n"), String(text.prefix(60)))
    let back = try TrackNetCSV.parse(text, file: "x.csv")
    XCTAssertEqual(Set(back.keys), Set(balls.keys))
    for (frame, candidates) in balls {
      XCTAssertEqual(back[frame]![0].x, candidates[0].x, accuracy: 1e-6)
      XCTAssertEqual(back[frame]![0].y, candidates[0].y, accuracy: 1e-6)
      XCTAssertEqual(back[frame]![0].confidence, candidates[0].confidence, accuracy: 1e-6)
    }
  }
}
