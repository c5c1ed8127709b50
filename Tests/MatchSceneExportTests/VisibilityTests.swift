@testable import MatchSceneExport
import MatchSceneCore
import TestSupport
import XCTest

/// Players are hidden (scale 0) where their track has no data for long, never frozen where last seen.
final class VisibilityTests: XCTestCase {
  func testPlayerHiddenBeforeAfterAndAcrossLongGaps() throws {
    let first = SyntheticScene.firstFrame
    // P2 appears at frame +5, vanishes for 30 frames (0.6 s at 50 fps) from +10, and ends at +44.
    let reconstruction = SyntheticScene.reconstruction(skip: { track, frame in
      let k = frame - first
      return track == "P2" && (k < 5 || (10..<40).contains(k) || k > 44)
    })
    let doc = try SyntheticScene.document(reconstruction)
    let p2 = try XCTUnwrap(doc.node("P2"))
    let match = doc.animations![0]
    let channel = try XCTUnwrap(match.channels.first { $0.target.node == p2 && $0.target.path == "scale" })
    let sampler = match.samplers[channel.sampler]
    XCTAssertEqual(sampler.interpolation, "STEP")
    let scale = doc.floats(sampler.output)
    func visible(_ k: Int) -> Bool { scale[3 * k] == 1 }
    XCTAssertFalse(visible(0))
    XCTAssertTrue(visible(5) && visible(9))
    XCTAssertFalse(visible(20), "a 0.6 s gap hides the player")
    XCTAssertTrue(visible(42))
    XCTAssertFalse(visible(49))
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }
}
