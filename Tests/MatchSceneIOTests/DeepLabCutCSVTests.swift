import Foundation
import MatchSceneCore
import MatchSceneIO
import XCTest

/// A single-animal analysis file with body parts named as COCO-17's (in another order, one
/// missing: right_ankle) plus one the skeleton lacks (paddle).
let deepLabCutSingle = """
  scorer,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50,DLC_resnet50
  bodyparts,Nose,Nose,Nose,paddle,paddle,paddle,left_ankle,left_ankle,left_ankle
  coords,x,y,likelihood,x,y,likelihood,x,y,likelihood
  0,958.2,412.7,0.93,1000,500,0.99,982.4,735.9,0.76
  1,,,,1001,501,0.98,983.0,736.1,0.5
  2,NaN,NaN,NaN,1002,502,0.97,,,
  """

final class DeepLabCutCSVTests: XCTestCase {
  func parse(_ text: String, skeleton: Skeleton = .coco17) throws -> [Int: [PersonDetection2D]] {
    try DeepLabCutCSV.parse(text, file: "pose/cam03.csv", skeleton: skeleton)
  }

  func testSingleAnimalMatchesBodyPartsByName() throws {
    let frames = try parse(deepLabCutSingle)
    XCTAssertEqual(frames.keys.sorted(), [0, 1, 2])
    let first = try XCTUnwrap(frames[0]?.first)
    XCTAssertEqual(first.keypoints.count, 17)
    XCTAssertEqual(first.keypoints[0], Keypoint2D(x: 958.2, y: 412.7, confidence: 0.93), "Nose matches nose")
    XCTAssertEqual(first.keypoints[15], Keypoint2D(x: 982.4, y: 735.9, confidence: 0.76))
    XCTAssertEqual(first.keypoints[16], .missing, "right_ankle is not in the file")
    XCTAssertEqual(frames[1]?.first?.keypoints[0], .missing, "empty cells")
    XCTAssertEqual(frames[1]?.first?.keypoints[15].confidence, 0.5)
    XCTAssertEqual(frames[2], [], "a row with every matched keypoint missing has nobody")
  }

  func testMultiAnimalAndLabelledData() throws {
    let multi = try parse("""
      scorer,S,S,S,S,S,S,S,S,S
      individuals,p1,p1,p1,p2,p2,p2,single,single,single
      bodyparts,nose,nose,nose,nose,nose,nose,left_hip,left_hip,left_hip
      coords,x,y,likelihood,x,y,likelihood,x,y,likelihood
      10,1,2,0.5,3,4,0.6,5,6,0.7
      11,,,,3,4,0.6,5,6,0.7
      """)
    XCTAssertEqual(multi[10]?.map(\.keypoints[0]), [Keypoint2D(x: 1, y: 2, confidence: 0.5), Keypoint2D(x: 3, y: 4, confidence: 0.6)])
    XCTAssertEqual(multi[10]?[0].keypoints[11], .missing, "the 'single' individual is not a person")
    XCTAssertEqual(multi[11]?.count, 1)
    // Labelled data: three index columns, image names, no likelihood.
    let labelled = try parse("""
      scorer,,,me,me,me,me
      bodyparts,,,nose,nose,left_eye,left_eye
      coords,,,x,y,x,y
      labeled-data,cam3,img0042.png,10.5,20.5,11,19
      labeled-data,cam3,img0043.png,10.6,20.6,,
      """)
    XCTAssertEqual(labelled.keys.sorted(), [42, 43])
    XCTAssertEqual(labelled[42]?[0].keypoints[1], Keypoint2D(x: 11, y: 19, confidence: 1))
  }

  /// pandas quotes a name holding a comma or a quote (RFC 4180): `"nose, left"`, `"a ""b"""`; the
  /// quotes are removed before the names are compared, and the columns stay where they are.
  func testQuotedHeaderCellsAreUnquoted() throws {
    let skeleton = Skeleton(name: "custom", keypoints: ["nose, left", "tip \"a\""], bones: [])
    let frames = try parse(#"""
      scorer,S,S,S,S,S,S
      "individuals","p, 1","p, 1","p, 1","p, 1","p, 1","p, 1"
      bodyparts,"nose, left","nose, left","nose, left","tip ""a""","tip ""a""","tip ""a"""
      "coords","x","y","likelihood",x,y,likelihood
      "7",1,2,0.5,3,4,0.6
      """#, skeleton: skeleton)
    XCTAssertEqual(frames.keys.sorted(), [7])
    XCTAssertEqual(frames[7]?.first?.keypoints, [Keypoint2D(x: 1, y: 2, confidence: 0.5), Keypoint2D(x: 3, y: 4, confidence: 0.6)])
  }

  func testErrorsNameFileAndPlace() {
    assertInputError(try parse(deepLabCutSingle, skeleton: Skeleton(name: "animal", keypoints: ["tail", "snout"], bones: [])),
                     contains: ["pose/cam03.csv: no body part matches", "the file has Nose, paddle, left_ankle", "the skeleton has tail, snout"])
    assertInputError(try parse(deepLabCutSingle + "\n3,1,2,x,4,5,6,7,8,9"), contains: ["pose/cam03.csv:7: column 4: 'x' is not a number"])
    assertInputError(try parse(deepLabCutSingle + "\n1,1,2,1,4,5,6,7,8,9"), contains: ["pose/cam03.csv:7: frame 1 appears twice (also line 5)"])
    assertInputError(try parse(deepLabCutSingle + "\n3,1,2"), contains: ["pose/cam03.csv:7: has 3 fields; expected 10"])
    assertInputError(try parse("frame,x,y\n0,1,2\n"), contains: ["pose/cam03.csv:1:", "expected DeepLabCut's header rows"])
    assertInputError(try parse(deepLabCutSingle.replacingOccurrences(of: "coords,x,y,likelihood,x", with: "coords,x,y,z,x")),
                     contains: ["pose/cam03.csv:3: column 4: coordinate 'z' is not x, y or likelihood"])
    assertInputError(try parse(deepLabCutSingle + "\nlast,1,2,1,4,5,6,7,8,9"), contains: ["pose/cam03.csv:7: 'last' gives no frame number"])
  }
}
