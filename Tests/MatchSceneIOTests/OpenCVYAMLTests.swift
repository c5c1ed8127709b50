import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import XCTest

final class OpenCVYAMLTests: XCTestCase {
  /// What OpenCV's FileStorage writes (its documentation's example), CRLF line endings included.
  let openCVExample = """
    %YAML:1.0
    ---
    frameCount: 5
    calibrationDate: "Sat Nov 30 16:49:41 2013\\n"
    cameraMatrix: !!opencv-matrix
       rows: 3
       cols: 3
       dt: d
       data: [ 1000., 0., 320., 0., 1000., 240., 0., 0., 1. ]
    distCoeffs: !!opencv-matrix
       rows: 5
       cols: 1
       dt: d
       data: [ 1.0000000000000001e-01, 1.0000000000000000e-02,
           -1.0000000000000000e-03, 0., 0. ]
    features:
       - { x:41, y:227, lbp:[ 0, 1, 1, 1, 1, 1, 0, 1 ] }
       - { x:260, y:449, lbp:[ 0, 0, 1, 1, 0, 1, 1, 0 ] }
    names:
    - 'it''s'   # a comment
    - name: nested
      size: 2
    """.replacingOccurrences(of: "\n", with: "\r\n")

  func testReadsWhatFileStorageWrites() throws {
    let doc = try OpenCVYAML(text: openCVExample, file: "t.yml")
    XCTAssertEqual(doc.entries.map(\.key), ["frameCount", "calibrationDate", "cameraMatrix", "distCoeffs", "features", "names"])
    XCTAssertEqual(doc["frameCount"]?.scalar, "5")
    XCTAssertEqual(doc["calibrationDate"]?.scalar, "Sat Nov 30 16:49:41 2013\n")
    let matrix = try XCTUnwrap(doc["cameraMatrix"])
    XCTAssertEqual(matrix.tag, "!!opencv-matrix")
    XCTAssertEqual(matrix["rows"]?.scalar, "3")
    XCTAssertEqual(matrix["data"]?.sequence?.compactMap { $0.scalar.flatMap(OpenCVYAML.number) }, [1000, 0, 320, 0, 1000, 240, 0, 0, 1])
    let dist = try XCTUnwrap(doc["distCoeffs"]?["data"]?.sequence, "data wrapped over two lines")
    XCTAssertEqual(dist.compactMap { $0.scalar.flatMap(OpenCVYAML.number) }, [0.1, 0.01, -0.001, 0, 0])
    let features = try XCTUnwrap(doc["features"]?.sequence)
    XCTAssertEqual(features[1]["y"]?.scalar, "449", "flow mapping written as x:41 without a space")
    XCTAssertEqual(features[0]["lbp"]?.sequence?.count, 8)
    let names = try XCTUnwrap(doc["names"]?.sequence, "a list at its key's indentation")
    XCTAssertEqual(names[0].scalar, "it's")
    XCTAssertEqual(names[1]["size"]?.scalar, "2", "- key: value items are mappings")
    XCTAssertEqual(OpenCVYAML.number(".Nan")?.isNaN, true)
    XCTAssertEqual(OpenCVYAML.number("-.Inf"), -.infinity)
    XCTAssertNil(OpenCVYAML.number("cam01"))
  }

  func testMalformedTextNamesTheLine() {
    assertInputError(try OpenCVYAML(text: "%YAML:1.0\na: [1, 2,\n  3\n", file: "t.yml"), contains: ["t.yml:2:", "unclosed '['"])
    assertInputError(try OpenCVYAML(text: "a: 1\n\tb: 2\n", file: "t.yml"), contains: ["t.yml:2: tab in the indentation"])
    assertInputError(try OpenCVYAML(text: "a: 1\njust text\n", file: "t.yml"), contains: ["t.yml:2: expected 'key: value'"])
    assertInputError(try OpenCVYAML(text: "a: 1\n    b: 2\n", file: "t.yml"), contains: ["t.yml:2: unexpected indentation"])
    assertInputError(try OpenCVYAML(text: "a: 1\na: 2\n", file: "t.yml"), contains: ["t.yml:2: key 'a' appears twice"])
    assertInputError(try OpenCVYAML(text: "a: \"open\n", file: "t.yml"), contains: ["t.yml:1: unclosed quote"])
  }
}
