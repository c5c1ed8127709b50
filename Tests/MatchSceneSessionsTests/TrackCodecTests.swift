import Foundation
import MatchSceneCore
import MatchSceneSessions
import TestSupport
import XCTest

final class TrackCodecTests: XCTestCase {
  /// Random walks with gaps, filled samples, jumps of hundreds of metres and up to 40 views decode to the
  /// same states and views, positions within 0.5 µm and reprojection errors within 0.5 mpx (the rounding
  /// of tracks.csv's 6 and 3 decimals); cut or padded bytes are refused.
  func testRoundTripAndDamage() throws {
    var generator = SeededGenerator(seed: 3)
    var track = MotionTrack(id: "P1", kind: .player, jointCount: 3, frames: 100...899)
    var p = SIMD3<Double>(1, -2, 0.8)
    for i in track.samples.indices {
      let roll = Double.random(in: 0..<1, using: &generator)
      if roll < 0.1 { continue }  // missing
      p += SIMD3(Double.random(in: -0.05...0.05, using: &generator), Double.random(in: -0.05...0.05, using: &generator), 0)
      if roll > 0.995 { p.x = Double.random(in: -900...900, using: &generator) }
      track.samples[i] = MotionSample(
        position: p, reprojectionPx: roll < 0.2 ? -1 : Double.random(in: 0...40, using: &generator),
        views: Int.random(in: 0...40, using: &generator), state: roll < 0.2 ? .filled : .measured)
    }
    let data = TrackCodec.encode(track)
    var back = MotionTrack(id: "P1", kind: .player, jointCount: 3, frames: 100...899)
    try TrackCodec.decode(data, into: &back)
    for (a, b) in zip(track.samples, back.samples) {
      XCTAssertEqual(a.state, b.state)
      guard a.isPresent else { continue }
      XCTAssertEqual(a.views, b.views)
      XCTAssertEqual(a.reprojectionPx, b.reprojectionPx, accuracy: 0.5e-3 + 1e-12)
      let d = a.position - b.position
      XCTAssertLessThanOrEqual(max(abs(d.x), abs(d.y), abs(d.z)), 0.5e-6 + 1e-9)
    }
    print("mst1: \(data.count) bytes for \(track.samples.count) samples (\(String(format: "%.1f", Double(data.count) / Double(track.samples.count))) B each)")
    var cut = MotionTrack(id: "P1", kind: .player, jointCount: 3, frames: 100...899)
    XCTAssertThrowsError(try TrackCodec.decode(data.prefix(data.count - 3), into: &cut))
    XCTAssertThrowsError(try TrackCodec.decode(data + Data([0]), into: &cut))
  }
}
