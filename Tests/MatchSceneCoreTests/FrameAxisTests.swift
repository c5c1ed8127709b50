import MatchSceneCore
import XCTest

/// The compact frame axis of a sparse match: gaps collapsed to the pad, frames mapped both ways.
final class FrameAxisTests: XCTestCase {
  func testDenseFramesGiveTheIdentity() {
    let axis = FrameAxis.compacting(Array(0..<100) + Array(150..<200), pad: 60)
    XCTAssertTrue(axis.isIdentity)
    XCTAssertEqual(axis.real(123), 123)
    XCTAssertEqual(axis.compact(-5), -5)
    XCTAssertEqual(axis.runs(in: 0...199).map(\.real), [0...199])
  }

  func testGapsLongerThanThePadCollapseToIt() throws {
    // Two runs an hour apart at 60 fps, pad 600 frames.
    let hour = 216_000
    let frames = Array(10..<250) + Array((hour + 250)..<(hour + 490))
    let axis = FrameAxis.compacting(frames.shuffled(), pad: 600)
    XCTAssertEqual(axis.pieces.count, 2)
    // The first frame keeps its number; the second run starts pad + 1 frames after the first's end.
    XCTAssertEqual(axis.compact(10), 10)
    XCTAssertEqual(axis.compact(249), 249)
    XCTAssertEqual(axis.compact(hour + 250), 249 + 601)
    XCTAssertNil(axis.compact(hour / 2), "a frame in the collapsed gap")
    // Round trips, over every data frame and the pad frames.
    for f in frames { XCTAssertEqual(axis.real(try XCTUnwrap(axis.compact(f))), f) }
    let compactEnd = try XCTUnwrap(axis.compact(hour + 489))
    var previous = Int.min
    for c in 10...compactEnd {
      let r = axis.real(c)
      XCTAssertGreaterThan(r, previous, "increasing")
      XCTAssertEqual(axis.compact(r), c)
      previous = r
    }
    // The pad keeps its halves beside the runs, at their real distances.
    XCTAssertEqual(axis.real(249 + 300), 249 + 300)
    XCTAssertEqual(axis.real(249 + 301), hour + 250 - 300)
    // Runs: contiguous in real frames; the compact axis holds the data and one pad.
    let runs = axis.runs(in: 10...compactEnd)
    XCTAssertEqual(runs.map(\.real), [10...549, (hour - 50)...(hour + 489)])
    XCTAssertEqual(compactEnd - 10 + 1, 480 + 600)
    XCTAssertEqual(axis.realTime(1.0 / 120 + Double(900) / 60, frame: 900, fps: 60), Double(axis.real(900)) / 60 + 1.0 / 120, accuracy: 1e-9)
  }

  func testReadersCompactOnlyMostlyEmptySpans() {
    let fps = 60.0
    XCTAssertTrue(FrameAxis.forRows(Array(0..<3000) + Array(4000..<5000), span: 0...4999, fps: fps).isIdentity)
    let sparse = FrameAxis.forRows(Array(0..<100) + Array(1_000_000..<1_000_100), span: 0...1_000_099, fps: fps)
    XCTAssertFalse(sparse.isIdentity)
    XCTAssertEqual(sparse.real(sparse.compact(1_000_050)!), 1_000_050)
  }
}

extension FrameAxisTests {
  func testRealRangesMapToCompactRanges() throws {
    let axis = FrameAxis.compacting(Array(0..<100) + Array(100_000..<100_100), pad: 60)
    XCTAssertEqual(axis.compact(0...99), 0...99)
    let whole = try XCTUnwrap(axis.compact(0...100_099))
    XCTAssertEqual(axis.real(whole), 0...100_099)
    XCTAssertNil(axis.compact(50_000...60_000), "inside the collapsed stretch")
    let tail = try XCTUnwrap(axis.compact(50_000...100_010))
    XCTAssertEqual(axis.real(tail.lowerBound), 100_000 - 30)
    XCTAssertEqual(axis.real(tail.upperBound), 100_010)
    XCTAssertEqual(FrameAxis.identity.compact(5...9), 5...9)
  }
}
