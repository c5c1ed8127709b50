import MatchSceneCore
import MatchSceneGeometry
import TestSupport
import XCTest

/// The kernel's left/right swap repair: the view a detector mirrored is found, the others are not.
final class MirrorSwapTests: XCTestCase {
  let cameras = ringCameras(count: 4)
  let skeleton = Skeleton.coco17

  /// A standing figure facing +x at `root`: left keypoints at +y, right at −y.
  func figure(at root: SIMD3<Double>) -> [SIMD3<Double>] {
    let offsets: [SIMD3<Double>] = [
      [0.1, 0, 1.65], [0.12, 0.03, 1.68], [0.12, -0.03, 1.68], [0.05, 0.07, 1.66], [0.05, -0.07, 1.66],
      [0, 0.2, 1.45], [0, -0.2, 1.45], [0.05, 0.25, 1.15], [0.05, -0.25, 1.15], [0.2, 0.25, 0.95],
      [0.2, -0.25, 0.95], [0, 0.1, 0.95], [0, -0.1, 0.95], [0.02, 0.1, 0.5], [0.02, -0.1, 0.5],
      [0, 0.1, 0.08], [0, -0.1, 0.08],
    ]
    return offsets.map { root + $0 }
  }

  /// Observations of `people`, point-major, with camera `mirroredCamera` of person 0 left/right swapped.
  func observations(_ people: [[SIMD3<Double>]], mirroredCamera: Int?) -> [Keypoint2D] {
    var out: [Keypoint2D] = []
    for (p, joints) in people.enumerated() {
      var perCamera = cameras.map { camera in camera.project(joints).map { Keypoint2D(x: $0!.x, y: $0!.y, confidence: 0.9) } }
      if p == 0, let c = mirroredCamera {
        for (l, r) in skeleton.mirrorPairs { perCamera[c].swapAt(l, r) }
      }
      for j in 0..<joints.count {
        for c in cameras.indices { out.append(perCamera[c][j]) }
      }
    }
    return out
  }

  func testTheSwappedViewIsFoundAndOnlyIt() throws {
    let triangulator = try Triangulator(cameras: cameras, options: .robust)
    let people = [figure(at: SIMD3(0.5, 0.2, 0)), figure(at: SIMD3(-0.8, -0.3, 0))]
    for swapped in [0, 2] {
      let obs = observations(people, mirroredCamera: swapped)
      let batch = try triangulator.triangulate(obs)
      let flags = try triangulator.mirroredViews(obs, batch: batch, keypointCount: skeleton.count, pairs: skeleton.mirrorPairs)
      XCTAssertEqual(flags.count, 2 * cameras.count)
      for p in 0..<2 {
        for c in cameras.indices {
          XCTAssertEqual(flags[p * cameras.count + c], p == 0 && c == swapped, "person \(p) camera \(c), swapped \(swapped)")
        }
      }
    }
  }

  func testNoSwapNoFlagAndBadPairsAreRejected() throws {
    let triangulator = try Triangulator(cameras: cameras, options: .robust)
    let obs = observations([figure(at: .zero)], mirroredCamera: nil)
    let batch = try triangulator.triangulate(obs)
    let flags = try triangulator.mirroredViews(obs, batch: batch, keypointCount: skeleton.count, pairs: skeleton.mirrorPairs)
    XCTAssertEqual(flags, Array(repeating: false, count: cameras.count))
    XCTAssertThrowsError(
      try triangulator.mirroredViews(obs, batch: batch, keypointCount: skeleton.count, pairs: [(0, 17)]))
  }
}
