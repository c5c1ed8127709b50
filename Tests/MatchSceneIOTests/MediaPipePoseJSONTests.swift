import Foundation
import MatchSceneCore
import MatchSceneIO
import XCTest

final class MediaPipePoseJSONTests: XCTestCase {
  /// A person's 33 landmarks: landmark j at x = j / 40, y = 0.5 + j / 100; visibility 0.9 except
  /// landmark 0, which has none.
  func landmarks(count: Int = 33) -> String {
    "[" + (0..<count).map { j in
      j == 0
        ? "{\"x\": 0.0, \"y\": 0.5, \"z\": -0.3}"
        : "{\"x\": \(Double(j) / 40), \"y\": \(0.5 + Double(j) / 100), \"z\": 0.1, \"visibility\": 0.9, \"presence\": 0.99}"
    }.joined(separator: ", ") + "]"
  }

  func parse(_ text: String) throws -> [Int: [PersonDetection2D]] {
    try MediaPipePoseJSON.parse(Data(text.utf8), file: "pose/cam03.mediapipe.json", imageSize: ImageSize(width: 1920, height: 1080))
  }

  func testScalesNormalisedLandmarksToPixels() throws {
    let frames = try parse("""
      [{"frame": 7, "pose_landmarks": [\(landmarks()), \(landmarks())]},
       {"frame": 8, "pose_landmarks": []}]
      """)
    XCTAssertEqual(frames.keys.sorted(), [7, 8])
    XCTAssertEqual(frames[8], [], "a frame with nobody")
    let person = try XCTUnwrap(frames[7]?[1])
    XCTAssertEqual(person.keypoints.count, 33)
    XCTAssertEqual(person.keypoints[0], Keypoint2D(x: 0, y: 540, confidence: 1), "no visibility: 1")
    XCTAssertEqual(person.keypoints[20].x, 20.0 / 40 * 1920, accuracy: 1e-9)
    XCTAssertEqual(person.keypoints[20].y, 0.7 * 1080, accuracy: 1e-9)
    XCTAssertEqual(person.keypoints[20].confidence, 0.9)
  }

  func testErrorsNameFileAndPlace() throws {
    assertInputError(try parse("[{\"frame\": 0, \"pose_landmarks\": [\(landmarks()), \(landmarks(count: 17))]}]"),
                     contains: ["pose/cam03.mediapipe.json: [[0].pose_landmarks[1]]", "person 1 has 17 landmarks; expected 33"])
    assertInputError(try parse("[{\"frame\": 4, \"pose_landmarks\": []}, {\"frame\": 4, \"pose_landmarks\": []}]"),
                     contains: ["[[1].frame]: frame 4 appears twice (also [0])"])
    assertInputError(try parse("[{\"frame\": 0, \"pose_landmarks\": [[{\"y\": 0.5}]]}]"), contains: ["[[0].pose_landmarks[0][0].x]: missing"])
    assertInputError(try parse("[{\"frame\": 0, \"pose_landmarks\": [\(landmarks())"), contains: ["pose/cam03.mediapipe.json:1:", "not valid JSON"])
    assertInputError(try MediaPipePoseJSON.checkSkeleton(.coco17, file: "pose/cam03.mediapipe.json"),
                     contains: ["pose/cam03.mediapipe.json:", "skeleton is 'coco17'", "set skeleton = \"blazepose33\""])
    XCTAssertNoThrow(try MediaPipePoseJSON.checkSkeleton(Skeleton.builtIn["mediapipe"]!, file: "x"))
  }
}
