import Foundation
import MatchSceneExport
import XCTest

final class ViewerPageTests: XCTestCase {
  func testEmbedsTheSceneAndPointsAtThreeJS() throws {
    let glb = Data([0x67, 0x6C, 0x54, 0x46, 2, 0, 0, 0])
    let page = ViewerPage.render(sceneFileName: "scene.glb", sceneData: glb)
    XCTAssertTrue(page.contains("data:model/gltf-binary;base64,\(glb.base64EncodedString())"))
    XCTAssertTrue(page.contains("https://unpkg.com/three@0.160.0/build/three.module.js"))
    XCTAssertTrue(page.contains("three/addons/loaders/GLTFLoader.js"))
    let linked = ViewerPage.render(sceneFileName: "scene.glb", threeJS: .folder("/opt/three"))
    XCTAssertTrue(linked.contains("\"scene.glb\""))
    XCTAssertTrue(linked.contains("file:///opt/three/build/three.module.js"), linked.components(separatedBy: "\n").filter { $0.contains("three.module") }.joined())
    XCTAssertFalse(linked.contains("__THREE__") || linked.contains("__SCENE__"), "every placeholder is filled")
  }
}
