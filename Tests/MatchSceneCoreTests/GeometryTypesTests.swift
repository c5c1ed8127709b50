import Foundation
import MatchSceneCore
import TestSupport
import XCTest

final class GeometryTypesTests: XCTestCase {
  func testRodriguesRoundTripIncludingNearPi() {
    var rng = SeededGenerator(seed: 11)
    for _ in 0..<200 {
      let axis = normalize(SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()))
      for angle in [rng.uniform(0...3.1), Double.pi - 1e-9, 1e-10] {
        let r = Matrix3.rodrigues(axis * angle)
        XCTAssertTrue(r.isRotation(tolerance: 1e-12))
        let back = Matrix3.rodrigues(r.rodriguesVector)
        for i in 0..<9 { XCTAssertEqual(back.m[i], r.m[i], accuracy: 1e-9) }
      }
    }
  }

  func testNotARotation() {
    XCTAssertFalse(Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, -1]).isRotation())  // a reflection
    XCTAssertFalse(Matrix3(rowMajor: [2, 0, 0, 0, 1, 0, 0, 0, 1]).isRotation())
    XCTAssertFalse(Matrix3(rowMajor: [.nan, 0, 0, 0, 1, 0, 0, 0, 1]).isRotation())
  }

  func testRigidTransformInverseAndLookAt() {
    let camera = Camera.lookingAt(
      SIMD3(0, 0, 1), from: SIMD3(3, -4, 2), name: "c", imageSize: ImageSize(width: 640, height: 480), focalPx: 500)
    assertClose(camera.center, SIMD3(3, -4, 2), absolute: 1e-12)
    // The target is straight ahead: on the optical axis.
    let target = camera.camFromWorld.apply(SIMD3(0, 0, 1))
    XCTAssertEqual(target.x, 0, accuracy: 1e-12)
    XCTAssertEqual(target.y, 0, accuracy: 1e-12)
    XCTAssertGreaterThan(target.z, 0)
    // World up appears upwards in the image (negative image y).
    XCTAssertLessThan(camera.camFromWorld.apply(SIMD3(0, 0, 2)).y, 0)
    let roundTrip = camera.worldFromCam * camera.camFromWorld
    assertClose(roundTrip.apply(SIMD3(1, 2, 3)), SIMD3(1, 2, 3), absolute: 1e-12)
  }

  func testSkeletonMirrorPairsAndBones() {
    XCTAssertEqual(Skeleton.coco17.count, 17)
    XCTAssertEqual(Skeleton.coco17.mirrorPairs.count, 8)
    XCTAssertEqual(Skeleton.halpe26.count, 26)
    XCTAssertEqual(Skeleton.body25.count, 25)
    XCTAssertEqual(Skeleton.blazePose33.count, 33)
    for skeleton in Skeleton.builtIn.values {
      XCTAssertEqual(Set(skeleton.keypoints).count, skeleton.count, "\(skeleton.name) has duplicate names")
      for (l, r) in skeleton.mirrorPairs {
        XCTAssertEqual(skeleton.keypoints[l].replacingOccurrences(of: "left", with: "right"), skeleton.keypoints[r])
      }
      XCTAssertGreaterThanOrEqual(skeleton.bones.count, skeleton.count - 8, "\(skeleton.name) lost bones to a typo")
    }
  }

  func testSeededGeneratorIsDeterministicAndNormal() {
    var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42)
    XCTAssertEqual((0..<10).map { _ in a.next() }, (0..<10).map { _ in b.next() })
    var g = SeededGenerator(seed: 1)
    let samples = (0..<100_000).map { _ in g.gaussian() }
    let mean = samples.reduce(0, +) / Double(samples.count)
    let variance = samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count)
    XCTAssertEqual(mean, 0, accuracy: 0.02)
    XCTAssertEqual(variance, 1, accuracy: 0.02)
  }

  func testAtomicWriteReplacesAndLeavesNoTemporaryFile() throws {
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("sub/out.txt")
    try AtomicFile.write("one", to: url)
    try AtomicFile.write("two", to: url)
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "two")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path), ["out.txt"])
    // Writing into a path whose parent is a file fails and changes nothing.
    XCTAssertThrowsError(try AtomicFile.write("x", to: url.appendingPathComponent("child")))
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "two")
  }

  func testInputErrorDescriptionsNameThePlace() {
    XCTAssertEqual(InputError(file: "a.csv", location: .line(3), "bad").description, "a.csv:3: bad")
    XCTAssertEqual(InputError(file: "c.toml", location: .key("cam1.matrix"), "bad").description, "c.toml: [cam1.matrix]: bad")
    XCTAssertEqual(InputError(file: "p.json", location: .lineColumn(2, 5), "bad").description, "p.json:2:5: bad")
  }
}
