import MatchSceneCore
import XCTest

/// The one frame-range syntax of the command line (`reconstruct --frames`, `clip --frames`).
final class FrameRangeTextTests: XCTestCase {
  func testARangeAndASingleFrame() {
    XCTAssertEqual(ClosedRange(frames: "100-400"), 100...400)
    XCTAssertEqual(ClosedRange(frames: "50"), 50...50)
    XCTAssertEqual(ClosedRange(frames: "7-7"), 7...7)
  }

  func testMalformedRangesAreRefused() {
    for text in ["400-100", "1-", "-", "a-b", "", "1-2-3", "1.5"] {
      XCTAssertNil(ClosedRange(frames: text), text)
    }
  }
}
