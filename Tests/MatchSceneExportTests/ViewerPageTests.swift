import Foundation
import MatchSceneCore
import MatchSceneExport
import TestSupport
import XCTest
@testable import MatchSceneReview

final class ViewerPageTests: XCTestCase {
  /// The base64 data URI in `page`, decoded.
  private func embedded(_ page: String) -> Data? {
    let prefix = "data:model/gltf-binary;base64,"
    guard let start = page.range(of: prefix) else { return nil }
    let rest = page[start.upperBound...]
    let end = rest.firstIndex(of: "\"") ?? rest.endIndex
    return Data(base64Encoded: String(rest[..<end]))
  }

  func testEmbeddedSceneDecodesBackToTheGLB() throws {
    let glb = try GLTFWriter.glbData(try SyntheticScene.document())
    let page = ViewerPage.render(sceneFileName: "scene.glb", sceneData: glb)
    XCTAssertEqual(embedded(page), glb)
    XCTAssertTrue(page.contains("<title>MatchScene — scene.glb</title>"))
    XCTAssertFalse(page.contains("__"), "every placeholder is filled")
  }

  func testReferencesTheSceneFileWhenNotEmbedded() {
    let page = ViewerPage.render(sceneFileName: "match 1.glb", threeJS: .defaultCDN)
    XCTAssertTrue(page.contains("const MATCHSCENE_SOURCE = \"match 1.glb\";"))
    XCTAssertNil(embedded(page))
  }

  func testCDNUsesAnImportMapOfPinnedModules() {
    let page = ViewerPage.render(sceneFileName: "scene.glb")
    XCTAssertTrue(page.contains("<script type=\"importmap\">"))
    XCTAssertTrue(page.contains("\"three\": \"https://unpkg.com/three@0.160.0/build/three.module.js\""))
    XCTAssertTrue(page.contains("\"three/addons/\": \"https://unpkg.com/three@0.160.0/examples/jsm/\""))
    XCTAssertTrue(page.contains("from \"three/addons/controls/OrbitControls.js\""))
    XCTAssertTrue(page.contains("from \"three/addons/loaders/GLTFLoader.js\""))
    XCTAssertFalse(page.contains("three.min.js"))
  }

  func testModuleFolderUsesFileURLs() {
    let page = ViewerPage.render(sceneFileName: "scene.glb", threeJS: .folder("/opt/three"))
    XCTAssertTrue(page.contains("file:///opt/three/build/three.module.js"))
    XCTAssertTrue(page.contains("file:///opt/three/examples/jsm/"))
  }

  func testLocalDebianCopyUsesClassicScripts() {
    let page = ViewerPage.render(sceneFileName: "scene.glb", threeJS: .debian)
    let missing = " onerror=\"matchsceneMissing(this.src)\"></script>"
    XCTAssertTrue(page.contains("<script src=\"file:///usr/share/javascript/three/three.min.js\"" + missing))
    XCTAssertTrue(
      page.contains("<script src=\"file:///usr/share/javascript/three/examples/js/controls/OrbitControls.js\"" + missing))
    XCTAssertTrue(
      page.contains("<script src=\"file:///usr/share/javascript/three/examples/js/loaders/GLTFLoader.js\"" + missing))
    XCTAssertFalse(page.contains("importmap"))
    // The main script (defining matchsceneStart) comes before the call.
    let defined = page.range(of: "function matchsceneStart(THREE)")!.lowerBound
    let called = page.range(of: "matchsceneStart(THREE);")!.lowerBound
    XCTAssertLessThan(defined, called)
  }

  func testSceneNameCannotBreakOutOfTheScript() {
    let page = ViewerPage.render(sceneFileName: "</script><b>x.glb")
    XCTAssertFalse(page.contains("</script><b>"))
    XCTAssertTrue(page.contains("&lt;/script&gt;&lt;b&gt;x.glb"))
  }

  func testBundledCopyUsesPathsRelativeToThePage() throws {
    let page = ViewerPage.render(sceneFileName: "scene.glb", threeJS: .bundled("three"))
    XCTAssertTrue(page.contains("<script src=\"three/three.min.js\""))
    XCTAssertTrue(page.contains("<script src=\"three/examples/js/loaders/GLTFLoader.js\""))
    XCTAssertFalse(page.contains("file://"))
    // Copying from a folder with the classic scripts puts them under three/ beside the page.
    let source = try makeTemporaryFolder("three-src"), target = try makeTemporaryFolder("page")
    for file in ["build/three.min.js"] + ThreeJSBundle.files.dropFirst() {
      let url = source.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(file.utf8).write(to: url)
    }
    XCTAssertEqual(try ThreeJSBundle.copy(from: source, to: target), .bundled("three"))
    XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("three/three.min.js"), encoding: .utf8), "build/three.min.js")
    XCTAssertEqual(
      try String(contentsOf: target.appendingPathComponent("three/examples/js/controls/OrbitControls.js"), encoding: .utf8),
      "examples/js/controls/OrbitControls.js")
  }

  func testEventsAreEmbeddedAsJSON() {
    var point = MatchEvent(type: .point, frame: 5, time: 0.1, track: "P1")
    point.score = ["P1": 1, "P2": 0]
    point.zone = "</script>"
    let page = ViewerPage.render(sceneFileName: "scene.glb", events: [point])
    XCTAssertTrue(page.contains("const MATCHSCENE_EVENTS = [{"), "events embedded")
    XCTAssertTrue(page.contains("\"score\":{\"P1\":1,\"P2\":0}"))
    XCTAssertFalse(page.contains("\"</script>"), "an event cannot close the script")
    XCTAssertTrue(ViewerPage.render(sceneFileName: "scene.glb").contains("const MATCHSCENE_EVENTS = null;"))
  }
}

final class RGBImageTests: XCTestCase {
  func testShapesPaintThePixelsTheyCover() {
    var image = RGBImage(width: 40, height: 30, bytes: [UInt8](repeating: 0, count: 40 * 30 * 3))
    let red = SIMD3<UInt8>(255, 0, 0)
    image.fillDisc(center: SIMD2(10, 10), radius: 3, color: red)
    XCTAssertEqual(image[9, 9], red)
    XCTAssertEqual(image[9, 12], red, "(9.5, 12.5) is 2.5 px from the centre")
    XCTAssertEqual(image[9, 13], SIMD3(0, 0, 0), "(9.5, 13.5) is 3.5 px away")
    image.drawLine(from: SIMD2(0, 25), to: SIMD2(40, 25), width: 2, color: red)
    XCTAssertEqual((0..<40).filter { image[$0, 24] == red }.count, 40)
    XCTAssertEqual(image[20, 26], SIMD3(0, 0, 0))
    image.drawRing(center: SIMD2(30, 10), radius: 5, thickness: 1, color: red)
    XCTAssertEqual(image[29, 9], SIMD3(0, 0, 0), "a ring leaves its centre")
    XCTAssertEqual(image[34, 9], red)
    // Far-off and non-finite points draw nothing and do not trap.
    let before = image
    image.drawLine(from: SIMD2(-1e300, 5), to: SIMD2(-1e299, 5), width: 2, color: red)
    image.fillDisc(center: SIMD2(.nan, 5), radius: 3, color: red)
    XCTAssertEqual(image, before)
  }

  func testPaletteColoursDecode() {
    XCTAssertEqual(OverlayVideo.rgb("#ff5050"), SIMD3(255, 0x50, 0x50))
  }
}
