import MatchSceneCore
import XCTest

@testable import MatchSceneReconstruction

/// `PeopleAssociation.medianPixelDistance` (sorted in a stack buffer) against sorting an array of the
/// distances, as the re-assignment step did before.
final class MedianPixelDistanceTests: XCTestCase {
  func testEqualsTheArraySortedMedian() {
    var rng = SeededGenerator(seed: 9)
    var compared = 0
    for _ in 0..<500 {
      let joints = 1 + Int(rng.next() % 20)
      let projected: [SIMD2<Double>?] = (0..<joints).map { _ in
        rng.next() % 6 == 0 ? nil : SIMD2((rng.gaussian() * 40).rounded(), (rng.gaussian() * 40).rounded())
      }
      let detection = PersonDetection2D(keypoints: (0..<Int(rng.next() % 22)).map { _ in
        Keypoint2D(x: (rng.gaussian() * 40).rounded(), y: (rng.gaussian() * 40).rounded(), confidence: Double(rng.next() % 4) / 3)
      })
      var distances: [Double] = []
      for (j, pixel) in projected.enumerated() where j < detection.keypoints.count {
        let k = detection.keypoints[j]
        guard let pixel, k.isDetected, k.confidence >= 0.3 else { continue }
        distances.append(((pixel.x - k.x) * (pixel.x - k.x) + (pixel.y - k.y) * (pixel.y - k.y)).squareRoot())
      }
      distances.sort()
      let expected = distances.count >= 3 ? distances[distances.count / 2] : nil
      let got = PeopleAssociation.medianPixelDistance(projected, detection, minConfidence: 0.3)
      XCTAssertEqual(got?.bitPattern, expected?.bitPattern)
      if expected != nil { compared += 1 }
    }
    XCTAssertGreaterThan(compared, 100)
  }
}
