import Foundation
import TestSupport
import XCTest

/// `matchscene view --three /usr/share/javascript/three` as a user runs it: three.js copied next to the
/// page, the page opened from file:// in Chromium with no page-relaxing flag, events.json's events shown.
final class ViewCommandTests: XCTestCase {
  func testViewBundlesThreeJSAndThePageLoads() throws {
    try requireTier(.integration)
    let browser = try Chromium.executable()
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "5"]).status, 0)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    let view = try runMatchScene(["view", out.appendingPathComponent("scene.glb").path, "--three", Chromium.threeFolder])
    XCTAssertEqual(view.status, 0, view.stderr)
    XCTAssertTrue(view.stdout.contains("events from events.json"), view.stdout)
    for file in ["three.min.js", "examples/js/controls/OrbitControls.js", "examples/js/loaders/GLTFLoader.js"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("three/\(file)").path), file)
    }
    let html = try String(contentsOf: out.appendingPathComponent("scene.html"), encoding: .utf8)
    XCTAssertFalse(html.contains("file://"), "the page refers to its own folder only, so it can be moved")

    let dom = try Chromium.run(browser, page: out.appendingPathComponent("scene.html"))
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("warnings", in: dom), "", "console warnings")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
    XCTAssertTrue(dom.contains(">match (") && dom.contains(">rally-01 ("), "clip picker")

    // Bad input: no such folder; a folder without the classic scripts.
    let missing = try runMatchScene(["view", out.appendingPathComponent("scene.glb").path, "--three", folder.appendingPathComponent("nope").path])
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("nope: no such folder"), missing.stderr)
    let empty = try runMatchScene(["view", out.appendingPathComponent("scene.glb").path, "--three", match.path])
    XCTAssertNotEqual(empty.status, 0)
    XCTAssertTrue(empty.stderr.contains("no three.min.js"), empty.stderr)

    // The output folder stands for its scene (it used to fail with "Is a directory"); a folder without
    // one is named.
    let page = try Data(contentsOf: out.appendingPathComponent("scene.html"))
    let byFolder = try runMatchScene(["view", out.path, "--three", Chromium.threeFolder])
    XCTAssertEqual(byFolder.status, 0, byFolder.stderr)
    XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("scene.html")), page)
    let noScene = try runMatchScene(["view", match.path])
    XCTAssertNotEqual(noScene.status, 0)
    XCTAssertTrue(noScene.stderr.contains("is a folder without scene.glb"), noScene.stderr)
  }
}
