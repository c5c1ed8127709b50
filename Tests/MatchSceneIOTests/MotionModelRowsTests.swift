import MatchSceneCore
import MatchSceneIO
import XCTest

/// The motion model as `tracks.csv` rows: a sparse match's rows go on the compact frame axis.
final class MotionModelRowsTests: XCTestCase {
  /// A model read from rows an hour apart holds samples for the data and the pad, not the hour.
  func testModelFromSparseRowsIsBoundedByTheData() throws {
    let skeleton = Skeleton.coco17
    let rows = (Array(0..<60) + Array(216_000..<216_060)).map { f in
      TrackPoint(
        frame: f, time: Double(f) / 60, track: "P1", kind: .player, joint: skeleton.keypoints[0],
        position: SIMD3(Double(f), 0, 0), reprojectionPx: 1, views: 2)
    }
    let model = MotionModel(points: rows, fps: 60, skeleton: skeleton)
    let samples = model.tracks.reduce(0) { $0 + $1.samples.count }
    XCTAssertLessThanOrEqual(samples, skeleton.count * (120 + FrameAxis.padFrames(fps: 60) + 1))
    XCTAssertEqual(model.rows.map(\.frame), rows.map(\.frame))
    XCTAssertEqual(model.rows.map(\.time), rows.map(\.time))
  }
}
