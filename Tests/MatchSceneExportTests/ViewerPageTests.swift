import Foundation
import MatchSceneExport
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
    XCTAssertTrue(page.contains("<script src=\"file:///usr/share/javascript/three/three.min.js\"></script>"))
    XCTAssertTrue(
      page.contains("<script src=\"file:///usr/share/javascript/three/examples/js/controls/OrbitControls.js\"></script>"))
    XCTAssertTrue(
      page.contains("<script src=\"file:///usr/share/javascript/three/examples/js/loaders/GLTFLoader.js\"></script>"))
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
}
