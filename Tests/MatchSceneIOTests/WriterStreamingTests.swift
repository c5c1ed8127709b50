import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneIO

/// `match.c3d` and `trc/` are rendered and written in bounded pieces: the pieces joined are the bytes of
/// the whole-file rendering, no piece is larger than its bound plus one frame, and the files written
/// are those bytes.
final class WriterStreamingTests: XCTestCase {
  /// Two players and a ball over `frames` at 60 fps, positions distinct per joint and frame; P1 misses
  /// every joint at the first frame and joint 3 every seventh frame, the ball every third frame.
  private func match(frames: ClosedRange<Int>) -> MotionModel {
    var motion = MotionModel(fps: 60, skeleton: .coco17, frames: frames)
    for (t, id) in ["P1", "P2"].enumerated() {
      var track = motion.makeTrack(id: id, kind: .player)
      for j in 0..<17 {
        for f in frames where !(id == "P1" && (f == frames.lowerBound || (j == 3 && f % 7 == 0))) {
          let p = SIMD3(Double(t) - 0.5 + Double(j) * 0.013, 1e-4 * Double(f) - 0.2, 0.05 * Double(j) + 0.321)
          track[joint: j, frame: f] = MotionSample(
            position: p, reprojectionPx: 1 + Double(j % 4), views: 3, state: f % 5 == 0 ? .filled : .measured)
        }
      }
      motion.tracks.append(track)
    }
    var ball = motion.makeTrack(id: "ball", kind: .ball)
    for f in frames where f % 3 != 0 {
      ball[joint: 0, frame: f] = MotionSample(position: SIMD3(0.01 * Double(f % 300), 0.1, 0.9), reprojectionPx: 0.5, views: 2, state: .measured)
    }
    motion.tracks.append(ball)
    return motion
  }

  func testC3DPiecesJoinToTheWholeFileAndStayBounded() throws {
    let motion = match(frames: 1000...1599)
    let whole = try C3DWriter.render(motion)
    let frameBytes = (2 * 17 + 1) * 16
    var pieces: [[UInt8]] = []
    try C3DWriter.render(motion, naming: .keypoints, cameras: [], playerNames: [:], file: "x.c3d", pieceBytes: 20_000) {
      pieces.append($0)
    }
    XCTAssertGreaterThan(pieces.count, 10)
    XCTAssertEqual(Array(pieces.joined()), whole)
    XCTAssertLessThanOrEqual(pieces.map(\.count).max()!, 20_000 + frameBytes)
    // The file `write` streams in 4 MB pieces: 70,000 frames make 39 MB, nine pieces.
    let long = match(frames: 0...69_999)
    let url = try makeTemporaryFolder("c3d-stream").appendingPathComponent("match.c3d")
    try C3DWriter.write(long, to: url)
    XCTAssertTrue(try Data(contentsOf: url) == Data(try C3DWriter.render(long)), "written C3D differs from render")
  }

  func testTRCPiecesJoinToTheWholeTextAndStayBounded() throws {
    let motion = match(frames: 10...1209)
    let markers = MarkerSet(skeleton: .coco17, naming: .keypoints)
    let track = motion.tracks[0]
    let whole = TRCWriter.render(track, markers: markers, fps: 60, fileName: "P1.trc")
    XCTAssertTrue(whole.hasPrefix("PathFileType\t4\t(X/Y/Z)\tP1.trc\n"))
    XCTAssertTrue(whole.contains("\n11\t0.183333\t"), "P1 starts at its first frame with data, 11")
    var pieces: [[UInt8]] = []
    TRCWriter.render(
      markers: markers.names, frames: 11...1209, fps: 60, fileName: "P1.trc", yUp: true, pieceBytes: 10_000,
      position: { frame, m in
        let s = markers.sample(m, of: track, frame: frame)
        return s.isPresent ? s.position : nil
      }
    ) { pieces.append($0.bytes) }
    XCTAssertGreaterThan(pieces.count, 10)
    XCTAssertEqual(String(decoding: Array(pieces.joined()), as: UTF8.self), whole)
    // A row is at most 2 + 17 · 3 cells of ≤ 12 characters.
    XCTAssertLessThanOrEqual(pieces.map(\.count).max()!, 10_000 + 53 * 12)
    let folder = try makeTemporaryFolder("trc-stream")
    let files = try TRCWriter.writeAll(motion, to: folder)
    XCTAssertEqual(files.map(\.lastPathComponent), ["P1.trc", "P2.trc"])
    XCTAssertEqual(try String(contentsOf: files[0], encoding: .utf8), whole)
  }
}
