import Foundation
import MatchSceneCore
import MatchSceneIO
import XCTest

/// A results file as MMPose writes it for COCO evaluation: two people in frame 0 (the second
/// without a left ear: v = 0), one in frame 3 whose third values are flags (2), a non-person entry.
let cocoResults = """
  [{"image_id": 0, "category_id": 1, "score": 0.93, "keypoints": [\
  958.2,412.7,0.93,963.1,405.9,0.91,951.4,406.2,0.9,970.6,410.3,0.84,944.8,411.0,0.87,\
  985.5,452.1,0.82,931.3,453.8,0.81,1001.2,510.6,0.77,918.4,512.9,0.79,1010.9,561.2,0.7,\
  905.0,566.4,0.72,975.3,560.0,0.75,941.6,561.7,0.74,979.8,650.2,0.8,938.1,652.5,0.78,\
  982.4,735.9,0.76,935.7,738.3,0.74]},
   {"image_id": 0, "category_id": 1, "score": 0.8, "bbox": [1360, 380, 90, 360], "keypoints": [\
  1402,398,0.88,1405,391,0.86,1398,392,0.85,0,0,0,1393,396,0.8,\
  1420,440,0.8,1385,441,0.79,1431,500,0.7,1372,502,0.71,1440,551,0.6,\
  1365,553,0.62,1415,555,0.73,1390,556,0.72,1418,640,0.75,1392,642,0.74,\
  1420,725,0.7,1395,728,0.69]},
   {"image_id": 3, "category_id": 1, "score": 0.66, "keypoints": [\
  500,300,2,501,295,2,499,295,2,505,298,2,495,298,2,510,330,2,490,330,2,515,370,2,485,370,2,\
  518,400,2,482,400,2,505,400,2,495,400,2,506,460,2,494,460,2,507,520,2,493,520,1]},
   {"image_id": 3, "category_id": 37, "score": 0.5, "keypoints": []}]
  """

final class COCOKeypointsJSONTests: XCTestCase {
  func parse(_ text: String, count: Int = 17) throws -> [Int: [PersonDetection2D]] {
    try COCOKeypointsJSON.parse(Data(text.utf8), file: "pose/cam02.json", keypointCount: count)
  }

  func testParsesResultsByFrame() throws {
    let frames = try parse(cocoResults)
    XCTAssertEqual(frames.keys.sorted(), [0, 3], "frames without entries are absent; category 37 is not a person")
    XCTAssertEqual(frames[0]?.count, 2)
    XCTAssertEqual(frames[0]?[0].keypoints[0], Keypoint2D(x: 958.2, y: 412.7, confidence: 0.93))
    XCTAssertEqual(frames[0]?[1].keypoints[3], .missing, "v = 0 is missing")
    let third = try XCTUnwrap(frames[3]?.first)
    XCTAssertEqual(third.keypoints[0], Keypoint2D(x: 500, y: 300, confidence: 0.66), "v > 1 takes the detection's score")
    XCTAssertEqual(third.keypoints[16], Keypoint2D(x: 493, y: 520, confidence: 1), "v ≤ 1 is the confidence")
  }

  func testImageNamesAndScoresBeyondOne() throws {
    let keypoints = (0..<17).map { "\($0),\($0),6" }.joined(separator: ",")
    let frames = try parse("""
      [{"image_id": "frames/cam2_000123.jpg", "keypoints": [\(keypoints)], "score": 2.7},
       {"image_id": "124.png", "keypoints": [\(keypoints)]}]
      """)
    XCTAssertEqual(frames.keys.sorted(), [123, 124])
    XCTAssertEqual(frames[123]?[0].keypoints[5], Keypoint2D(x: 5, y: 5, confidence: 1), "score clamped to 1")
    XCTAssertEqual(frames[124]?[0].keypoints[5].confidence, 1, "no score: 1")
    assertInputError(try parse("[{\"image_id\": \"left.jpg\", \"keypoints\": [\(keypoints)]}]"),
                     contains: ["pose/cam02.json: [[0].image_id]", "frame number"])
  }

  func testErrorsNameFileAndPlace() {
    assertInputError(try parse(String(cocoResults.prefix(300))), contains: ["pose/cam02.json:1:", "not valid JSON"])
    assertInputError(try parse(""), contains: ["pose/cam02.json: empty file"])
    assertInputError(try parse(cocoResults, count: 26),
                     contains: ["pose/cam02.json: [[0].keypoints]", "has 51 numbers; expected 78 (26 keypoints × x, y, v)"])
    assertInputError(try parse("[{\"image_id\": 1, \"score\": 1}]"), contains: ["[[0].keypoints]: missing"])
    assertInputError(try parse("{\"annotations\": []}"), contains: ["pose/cam02.json:1:1: a JSON object", "results list"])
  }
}
