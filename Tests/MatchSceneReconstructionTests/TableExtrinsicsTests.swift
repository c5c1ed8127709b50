import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneReconstruction
import XCTest

/// Camera poses from the table's clicked corners and net posts, in the venue frame.
final class TableExtrinsicsTests: XCTestCase {
  let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)

  func truth() -> [Camera] {
    [SIMD3(1, -6, 3), SIMD3(-5, 4, 2.5), SIMD3(6, 1, 3.5)].enumerated().map { i, eye in
      Camera.lookingAt(
        SIMD3(0, 0, 0.76), from: eye, name: "cam\(i + 1)", imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400,
        distortion: [-0.1, 0.05, 0, 0, 0])
    }
  }

  /// Corners in model order starting at `first`, and the net posts' tops (the one beside the first side first).
  func clicks(_ camera: Camera, first: Int = 0, posts: Bool) -> TableExtrinsics.Clicks {
    let (l, w, h) = (table.length / 2, table.width / 2, table.surfaceHeight)
    let model = [SIMD3(-l, -w, h), SIMD3(l, -w, h), SIMD3(l, w, h), SIMD3(-l, w, h)]
    let order = (0..<4).map { (first + $0) % 4 }
    let sideSign: Double = order[0] == 0 || order[0] == 1 ? -1 : 1
    let postTops = [SIMD3(0, sideSign * (w + 0.1525), h + 0.1525), SIMD3(0, -sideSign * (w + 0.1525), h + 0.1525)]
    return TableExtrinsics.Clicks(
      camera: camera.name, corners: order.map { camera.project(model[$0])! }, netPosts: posts ? postTops.map { camera.project($0)! } : [])
  }

  func testCornersAndNetPostsGiveThePosesExactly() throws {
    for posts in [false, true] {
      let cameras = truth()
      var unposed = cameras
      for i in unposed.indices { unposed[i].camFromWorld = .identity }
      let fits = try TableExtrinsics.fit(cameras.map { clicks($0, posts: posts) }, cameras: unposed, table: table, file: "corners.toml")
      for (fit, camera) in zip(fits, cameras) {
        XCTAssertLessThan(fit.rmsPx, 1e-6)
        XCTAssertLessThan(length(fit.camera.center - camera.center), 1e-6, "\(camera.name), posts: \(posts)")
      }
    }
  }

  func testTheTablesOtherEndFirstTurnsTheWorldByAHalfTurn() throws {
    let cameras = truth()
    let fits = try TableExtrinsics.fit(cameras.map { clicks($0, first: 2, posts: true) }, cameras: cameras, table: table, file: "corners.toml")
    for (fit, camera) in zip(fits, cameras) {
      XCTAssertLessThan(fit.rmsPx, 1e-6)
      XCTAssertLessThan(length(fit.camera.center - SIMD3(-camera.center.x, -camera.center.y, camera.center.z)), 1e-6)
    }
  }

  func testACameraClickedInAnotherOrderIsNamed() {
    let cameras = truth()
    var all = cameras.map { clicks($0, posts: false) }
    all[1].corners = Array(all[1].corners[1...] + all[1].corners[..<1])
    XCTAssertThrowsError(try TableExtrinsics.fit(all, cameras: cameras, table: table, file: "corners.toml")) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("[cam2]") && text.contains("another order"), text)
    }
  }
}
