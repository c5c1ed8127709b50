import Foundation
import XCTest

@testable import MatchSceneReview

/// The review app's packed motion decodes to exactly what was packed: smooth motion, jumps (a hit, a
/// point appearing), the Int16 extremes, a short last chunk; smooth motion takes about a nibble a value.
final class ReviewMotionCodecTests: XCTestCase {
  func testRoundTripIsExact() throws {
    let frames = 1_337, points = 4, chunkFrames = 600
    var positions = [Int16](repeating: 0, count: frames * points * 3)
    var visible = [UInt8](repeating: 1, count: frames * points)
    for f in 0..<frames {
      for p in 0..<points {
        for a in 0..<3 {
          let t = Double(f) / 60
          var x = 1000 * sin(t * Double(p + 1) + Double(a)) + 300 * Double(a)
          if p == 3 { x = f % 97 < 40 ? 32767 : -32767 }  // jumps between the extremes
          if p == 2 && f > 700 { x += 2500 }  // a jump, then smooth
          positions[(f * points + p) * 3 + a] = Int16(x.rounded())
        }
        visible[f * points + p] = (f + p) % 13 == 0 ? 0 : 1
      }
    }
    let chunks = ReviewMotionCodec.encode(positions: positions, visible: visible, frames: frames, points: points, chunkFrames: chunkFrames)
    XCTAssertEqual(chunks.count, 3)
    let decoded = try ReviewMotionCodec.decode(chunks, frames: frames, points: points, chunkFrames: chunkFrames)
    XCTAssertEqual(decoded.positions, positions)
    XCTAssertEqual(decoded.visible, visible)
    // The three smooth points: about half a byte per value.
    let smooth = ReviewMotionCodec.encode(
      positions: (0..<(frames * 3 * 3)).map { positions[($0 / 9) * points * 3 + $0 % 9] }, visible: [UInt8](repeating: 1, count: frames * 3),
      frames: frames, points: 3, chunkFrames: chunkFrames)
    let bytes = smooth.reduce(0) { $0 + $1.positions.count }
    XCTAssertLessThan(Double(bytes), 0.6 * Double(frames * 9), "\(bytes) bytes for \(frames * 9) values")
  }

  func testTruncatedChunkFailsClearly() {
    let chunks = ReviewMotionCodec.encode(positions: [1, 2, 3, 4, 5, 6], visible: [1, 1], frames: 2, points: 1)
    XCTAssertThrowsError(try ReviewMotionCodec.decode([(Data(), chunks[0].visible)], frames: 2, points: 1)) { error in
      XCTAssertTrue("\(error)".contains("ends early"), "\(error)")
    }
  }
}
