import MatchSceneCore
import XCTest

@testable import MatchSceneReconstruction

/// `PeopleAssociation.medianPixelDistance` (sorted in a stack buffer) against sorting an array of the
/// distances, as the re-assignment step did before.
final class MedianPixelDistanceTests: XCTestCase {
  /// The re-assignment's median before the stack buffer: an array of the distances, sorted.
  private func arrayMedian(_ projected: [SIMD2<Double>?], _ detection: PersonDetection2D) -> Double? {
    var distances: [Double] = []
    for (j, pixel) in projected.enumerated() where j < detection.keypoints.count {
      let k = detection.keypoints[j]
      guard let pixel, k.isDetected, k.confidence >= 0.3 else { continue }
      distances.append(((pixel.x - k.x) * (pixel.x - k.x) + (pixel.y - k.y) * (pixel.y - k.y)).squareRoot())
    }
    distances.sort()
    return distances.count >= 3 ? distances[distances.count / 2] : nil
  }

  func testEqualsTheArraySortedMedian() {
    var rng = SeededGenerator(seed: 9)
    let cases = (0..<500).map { _ -> ([SIMD2<Double>?], PersonDetection2D) in
      let projected: [SIMD2<Double>?] = (0..<(1 + Int(rng.next() % 20))).map { _ in
        rng.next() % 6 == 0 ? nil : SIMD2((rng.gaussian() * 40).rounded(), (rng.gaussian() * 40).rounded())
      }
      let detection = PersonDetection2D(keypoints: (0..<Int(rng.next() % 22)).map { _ in
        Keypoint2D(x: (rng.gaussian() * 40).rounded(), y: (rng.gaussian() * 40).rounded(), confidence: Double(rng.next() % 4) / 3)
      })
      return (projected, detection)
    }
    let expected = cases.map { arrayMedian($0.0, $0.1) }
    let got = cases.map { PeopleAssociation.medianPixelDistance($0.0, $0.1, minConfidence: 0.3) }
    XCTAssertEqual(got.map { $0?.bitPattern }, expected.map { $0?.bitPattern })
    XCTAssertGreaterThan(expected.compactMap { $0 }.count, 100, "most cases must have a median to compare")
  }
}
