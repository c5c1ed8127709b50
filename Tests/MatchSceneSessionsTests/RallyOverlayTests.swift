import Foundation
import MatchSceneExport
import MatchSceneSessions
import TestSupport
import XCTest

final class RallyOverlayTests: XCTestCase {
  /// Rally 1 of one session and rally 2 of another in one scene: frame 0 is each rally's start, positions
  /// are the sessions' own (venue = world here), and the glb passes the validator with nodes A-P1, B-P1.
  func testTwoRalliesInOneScene() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    let dir = try makeTemporaryFolder("sessions-overlay")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let a = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 51, duration: 20), to: dir.appendingPathComponent("a"))))
    let b = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 52, duration: 20), to: dir.appendingPathComponent("b"))))
    let sa = try store.load(a.id), sb = try store.load(b.id)
    let ra = try XCTUnwrap(RallyOverlay.frames(ofRally: 1, in: sa.events))
    let rb = try XCTUnwrap(RallyOverlay.frames(ofRally: 2, in: sb.events))

    let motion = try RallyOverlay.motion(sa, rally: 1, sb, rally: 2)
    XCTAssertEqual(motion.frames, 0...(max(ra.count, rb.count) - 1))
    let hip = try XCTUnwrap(motion.skeleton.index(of: .leftHip))
    XCTAssertEqual(motion.track("A-P1")?.position(joint: hip, frame: 0), sa.motion.track("P1")?.position(joint: hip, frame: ra.lowerBound))
    XCTAssertEqual(motion.track("B-P1")?.position(joint: hip, frame: 10), sb.motion.track("P1")?.position(joint: hip, frame: rb.lowerBound + 10))
    XCTAssertThrowsError(try RallyOverlay.motion(sa, rally: 99, sb, rally: 1))

    let glb = try RallyOverlay.glb(sa, rally: 1, sb, rally: 2)
    XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
    let text = String(decoding: glb.prefix(200_000), as: UTF8.self)
    XCTAssertTrue(text.contains("\"A-P1\"") && text.contains("\"B-P1\""))
  }
}
