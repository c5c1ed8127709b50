import Foundation
import MatchSceneCore
import MatchSceneGeometry
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneReview

#if canImport(FoundationXML)
  import FoundationXML
#endif

final class OverlaySVGTests: XCTestCase {
  let camera = SyntheticScene.cameras[0]
  let frame = SyntheticScene.firstFrame + 7
  lazy var points = SyntheticScene.motion()

  /// The detection a perfect detector would report for `track`, shifted by `offset` pixels.
  func detection(_ track: String, offset: SIMD2<Double> = .zero) -> PersonDetection2D {
    let person = points.track(track)!
    return PersonDetection2D(
      keypoints: Skeleton.coco17.keypoints.indices.map { j in
        let p = camera.project(person.position(joint: j, frame: frame)!)! + offset
        return Keypoint2D(x: p.x, y: p.y, confidence: 0.9)
      })
  }

  func ballDetection(offset: SIMD2<Double> = .zero) -> BallDetection2D {
    let p = camera.project(points.track("ball")!.position(joint: 0, frame: frame)!)! + offset
    return BallDetection2D(x: p.x, y: p.y)
  }

  func testExactReprojectionGivesZeroAndAShiftGivesItsLength() {
    // Detections listed in the opposite order of the tracks, to exercise the matching.
    let scores = OverlaySVG.disagreements(
      camera: camera, frame: frame, detections: [detection("P2", offset: SIMD2(3, 4)), detection("P1")],
      balls: [ballDetection(offset: SIMD2(0, 2))], reconstructed: points, skeleton: .coco17)
    XCTAssertEqual(scores.map(\.track), ["P1", "P2", "ball"])
    XCTAssertEqual(scores[0].meanPx ?? .nan, 0, accuracy: 1e-9)
    XCTAssertEqual(scores[1].meanPx ?? .nan, 5, accuracy: 1e-9)
    XCTAssertEqual(scores[2].meanPx ?? .nan, 2, accuracy: 1e-9)
  }

  func testTrackWithoutDetectionHasNoNumber() {
    let scores = OverlaySVG.disagreements(
      camera: camera, frame: frame, detections: [detection("P1")], balls: [], reconstructed: points, skeleton: .coco17)
    XCTAssertEqual(scores[0].meanPx ?? .nan, 0, accuracy: 1e-9)
    XCTAssertNil(scores[1].meanPx)
    XCTAssertNil(scores[2].meanPx)
  }

  func testSVGParsesAsXMLWithTheImageSizeAndLegend() throws {
    let svg = OverlaySVG.render(
      camera: camera, frame: frame, detections: [detection("P1"), detection("P2", offset: SIMD2(3, 4))],
      balls: [ballDetection()], reconstructed: points, skeleton: .coco17)
    let collector = Collector()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = collector
    XCTAssertTrue(parser.parse(), "SVG is well-formed XML: \(String(describing: parser.parserError))")
    XCTAssertEqual(collector.root?["width"], "1920")
    XCTAssertEqual(collector.root?["height"], "1080")
    XCTAssertEqual(collector.legend["P1"], "0.00")
    XCTAssertEqual(collector.legend["P2"], "5.00")
    XCTAssertEqual(collector.legend["ball"], "0.00")
    // 2 people × 16 bones of detections + 2 × 16 reprojected bones.
    XCTAssertEqual(collector.count["line"], 4 * Skeleton.coco17.bones.count)
    // Detected and reprojected joints and balls, plus no other circles.
    XCTAssertEqual(collector.count["circle"], 4 * 17 + 2)
  }

  final class Collector: NSObject, XMLParserDelegate {
    var root: [String: String]?
    var legend: [String: String] = [:]
    var count: [String: Int] = [:]
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      if name == "svg" { root = attributes }
      if name == "text", let track = attributes["data-track"] { legend[track] = attributes["data-mean-px"] }
      count[name, default: 0] += 1
    }
  }
}
