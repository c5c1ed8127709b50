import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class DetectionFormatTests: XCTestCase {
  func person(_ seed: Double) -> PersonDetection2D {
    PersonDetection2D(keypoints: (0..<17).map { j in
      j == 3 ? .missing : Keypoint2D(x: 100 + seed + Double(j) * 10.123456, y: 200.5 - Double(j), confidence: 0.8)
    })
  }

  func testOpenPoseFileParsing() throws {
    let values = (0..<17).flatMap { [Double($0) * 2, Double($0) * 3, 0.9] }.map { "\($0)" }.joined(separator: ",")
    let json = "{\"version\":1.3,\"people\":[{\"person_id\":[-1],\"pose_keypoints_2d\":[\(values)]},{\"pose_keypoints_2d\":[\(values)]}]}"
    let people = try OpenPoseFolder.parse(Data(json.utf8), file: "f.json", keypointCount: 17)
    XCTAssertEqual(people.count, 2)
    XCTAssertEqual(people[0].keypoints[5], Keypoint2D(x: 10, y: 15, confidence: 0.9))
    XCTAssertEqual(try OpenPoseFolder.parse(Data("{\"people\":[]}".utf8), file: "f.json", keypointCount: 17), [])
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "cam01_000000000123_keypoints.json"), 123)
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "video.mp4_17_keypoints.json"), 17)
  }

  func testOpenPoseErrorsNameFileAndPosition() {
    func message(_ text: String, count: Int = 17) -> String {
      do {
        _ = try OpenPoseFolder.parse(Data(text.utf8), file: "cam01_json/x_000000000007_keypoints.json", keypointCount: count)
        return "no error"
      } catch { return "\(error)" }
    }
    XCTAssertTrue(message("").contains("empty file"))
    let truncated = message("{\"people\":[{\"pose_keypoints_2d\":[1,2,")
    XCTAssertTrue(truncated.hasPrefix("cam01_json/x_000000000007_keypoints.json:1:"), truncated)
    XCTAssertTrue(truncated.contains("not valid JSON"), truncated)
    let wrongCount = message("{\"people\":[{\"pose_keypoints_2d\":[1,2,0.5]}]}")
    XCTAssertTrue(wrongCount.contains("people[0].pose_keypoints_2d") && wrongCount.contains("expects 17 keypoints"), wrongCount)
    XCTAssertTrue(message("{\"nobody\":1}").contains("\"people\""))
  }

  func testOpenPoseFolderRoundTrip() throws {
    let folder = try makeTemporaryFolder()
    let people: [String: [Int: [PersonDetection2D]]] = [
      "cam01": [0: [person(0), person(50)], 1: [person(1)], 2: []], "cam02": [0: [person(3)]],
    ]
    try OpenPoseFolder.write(people, to: folder)
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cam01_json/cam01_000000000001_keypoints.json").path))
    let back = try OpenPoseFolder.read(poseFolder: folder, skeleton: .coco17)
    XCTAssertEqual(Set(back.keys), ["cam01", "cam02"])
    for (camera, frames) in people {
      for (frame, persons) in frames {
        let got = back[camera]![frame]!
        XCTAssertEqual(got.count, persons.count)
        for (a, b) in zip(persons, got) {
          for (ka, kb) in zip(a.keypoints, b.keypoints) {
            XCTAssertEqual(ka.x, kb.x, accuracy: 1e-6)
            XCTAssertEqual(ka.y, kb.y, accuracy: 1e-6)
            XCTAssertEqual(ka.confidence, kb.confidence, accuracy: 1e-6)
          }
        }
      }
    }
  }

  func testTrackNetCSV() throws {
    let text = "Frame,Visibility,X,Y\n0,1,100.5,200.25\n1,0,0,0\n2,1,10,20\n2,1,30,40\n"
    let balls = try TrackNetCSV.parse(text, file: "ball/cam01.csv")
    XCTAssertEqual(balls[0], [BallDetection2D(x: 100.5, y: 200.25)])
    XCTAssertNil(balls[1])
    XCTAssertEqual(balls[2]?.count, 2, "several rows of a frame are several candidates")
    let rendered = TrackNetCSV.render(balls, frames: 0...2)
    XCTAssertEqual(try TrackNetCSV.parse(rendered, file: "x.csv"), balls)
    XCTAssertThrowsError(try TrackNetCSV.parse("Frame,Visibility,X,Y\n0,1,abc,2\n", file: "ball/cam01.csv")) {
      XCTAssertTrue("\($0)".hasPrefix("ball/cam01.csv:2:"), "\($0)")
    }
    XCTAssertThrowsError(try TrackNetCSV.parse("Frame,X,Y\n", file: "b.csv")) { XCTAssertTrue("\($0)".contains("b.csv:1:")) }
  }

  func testTracksCSVRoundTripAndErrors() throws {
    let points = [
      TrackPoint(frame: 3, time: 0.05, track: "P1", kind: .player, joint: "nose", position: SIMD3(1.2345674, -0.5, 1.6), reprojectionPx: 1.25, views: 4),
      TrackPoint(frame: 3, time: 0.05, track: "ball", kind: .ball, joint: "ball", position: SIMD3(0, 0.1, 0.9), reprojectionPx: 0.5, views: 3),
    ]
    let text = TracksCSV.render(points)
    XCTAssertTrue(text.hasPrefix("frame,time,track,kind,joint,x,y,z,reproj_px,views\n3,0.050000,P1,player,nose,1.234567,-0.500000,1.600000,1.250,4\n"))
    let back = try TracksCSV.parse(text, file: "t.csv")
    XCTAssertEqual(back.count, 2)
    assertClose(back[0].position, points[0].position, absolute: 1e-6)
    XCTAssertThrowsError(try TracksCSV.parse(TracksCSV.header + "\n1,2,3\n", file: "t.csv")) { XCTAssertTrue("\($0)".hasPrefix("t.csv:2:")) }
  }

  func testEventsJSONRoundTrip() throws {
    let folder = try makeTemporaryFolder()
    let events = [
      MatchEvent(type: .rallyStart, frame: 10, time: 1 / 6, track: "P1", position: SIMD3(1, 2, 3), speed: 5, rally: 1),
      MatchEvent(type: .bounce, frame: 20, time: 1 / 3, position: SIMD3(0.5, 0, 0.78), surface: "table", side: "positive_x", rally: 1),
    ]
    let url = folder.appendingPathComponent("events.json")
    try EventsJSON.write(events, to: url)
    XCTAssertEqual(try EventsJSON.read(from: url), events)
    XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).contains("\"rally_start\""))
  }
}
