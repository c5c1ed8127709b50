import Foundation
import XCTest

@testable import MatchSceneExport

final class GLTFBuilderTests: XCTestCase {
  func testFloatAccessorsCarryMinMaxOfTheStoredFloat32Values() throws {
    var b = GLTFBuilder()
    let i = try b.addVec3([SIMD3(0.1, -2, 3), SIMD3(-0.3, 5, 3)], usage: .vertexAttribute)
    let a = b.finish().accessors![i]
    XCTAssertEqual(a.min, [Double(Float(-0.3)), -2, 3])
    XCTAssertEqual(a.max, [Double(Float(0.1)), 5, 3])
    XCTAssertEqual(a.count, 2)
    XCTAssertEqual(a.type, "VEC3")
    XCTAssertEqual(a.componentType, GLTFComponentType.float.rawValue)

    let t = try b.addScalars([0, 0.5, 1.25])
    let times = b.finish().accessors![t]
    XCTAssertEqual(times.min, [0])
    XCTAssertEqual(times.max, [1.25])
  }

  func testBufferViewsStartOn4ByteBoundariesAndGetTargetsOnlyForVertexData() throws {
    var b = GLTFBuilder()
    let idx = try b.addIndices([0, 1, 2])  // 3 × UInt16 = 6 bytes
    let pos = try b.addVec3([SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0)], usage: .vertexAttribute)
    let anim = try b.addVec4([SIMD4(0, 0, 0, 1)], usage: .animation)
    let doc = b.finish()
    let views = doc.bufferViews!
    let idxView = views[doc.accessors![idx].bufferView!]
    let posView = views[doc.accessors![pos].bufferView!]
    let animView = views[doc.accessors![anim].bufferView!]
    XCTAssertEqual(idxView.byteOffset, 0)
    XCTAssertEqual(idxView.byteLength, 6)
    XCTAssertEqual(posView.byteOffset, 8, "padded from 6 to 8")
    XCTAssertEqual(animView.byteOffset, 8 + 36)
    XCTAssertEqual(idxView.target, GLTFBufferView.elementArrayBuffer)
    XCTAssertEqual(posView.target, GLTFBufferView.arrayBuffer)
    XCTAssertNil(animView.target)
    XCTAssertEqual(doc.buffers?.first?.byteLength, 8 + 36 + 16)
    XCTAssertEqual(doc.binary.count, 60)
    XCTAssertEqual(doc.binary[6], 0, "padding bytes are zero")
    XCTAssertEqual(doc.binary[7], 0)
  }

  func testIndicesUseUInt16BelowTheReservedValueAndUInt32Otherwise() throws {
    var b = GLTFBuilder()
    let small = try b.addIndices([0, 65534])
    let large = try b.addIndices([0, 65535])
    let doc = b.finish()
    XCTAssertEqual(doc.accessors![small].componentType, GLTFComponentType.unsignedShort.rawValue)
    XCTAssertEqual(doc.accessors![large].componentType, GLTFComponentType.unsignedInt.rawValue)
    XCTAssertThrowsError(try b.addIndices16([1, 65535]))
    XCTAssertThrowsError(try b.addIndices32([UInt32.max]))
  }

  func testNonFiniteAndEmptyDataIsRejected() {
    var b = GLTFBuilder()
    XCTAssertThrowsError(try b.addVec3([SIMD3(0, .nan, 0)], usage: .animation)) { error in
      XCTAssertTrue("\(error)".contains("finite"), "\(error)")
    }
    XCTAssertThrowsError(try b.addVec4([SIMD4(0, 0, .infinity, 1)], usage: .animation))
    XCTAssertThrowsError(try b.addScalars([0, -.infinity]))
    XCTAssertThrowsError(try b.addScalars([]))
    XCTAssertThrowsError(try b.addIndices([]))
    XCTAssertNil(b.finish().accessors, "nothing was added")
  }

  func testJSONDeclaresOnlyWhatIsUsed() throws {
    var b = GLTFBuilder()
    let n = b.addNode(GLTFNode(name: "only"))
    _ = b.addScene(GLTFScene(nodes: [n]))
    let doc = b.finish()
    let json = String(decoding: try GLTFWriter.jsonData(doc), as: UTF8.self)
    XCTAssertFalse(json.contains("[]"), json)
    XCTAssertFalse(json.contains("extensionsUsed"), json)
    XCTAssertFalse(json.contains("buffers"), json)
    XCTAssertFalse(json.contains("accessors"), json)
    XCTAssertTrue(json.contains("\"version\":\"2.0\""), json)
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
  }

  func testNodeChildrenAreListedOnTheParent() {
    var b = GLTFBuilder()
    let root = b.addNode(GLTFNode(name: "root"))
    let a = b.addNode(GLTFNode(name: "a"), parent: root)
    let c = b.addNode(GLTFNode(name: "c"), parent: a)
    let doc = b.finish()
    XCTAssertEqual(doc.nodes![root].children, [a])
    XCTAssertEqual(doc.nodes![a].children, [c])
    XCTAssertNil(doc.nodes![c].children, "no empty children array")
  }

  func testExtrasRoundTripAsArbitraryJSON() throws {
    var b = GLTFBuilder()
    let extras: JSONValue = ["events": [["type": "bounce", "frame": 12, "position": [0.5, -0.2, 0.76]]], "ok": true]
    let n = b.addNode(GLTFNode(name: "n", extras: extras))
    _ = b.addScene(GLTFScene(nodes: [n], extras: ["note": .null]))
    let decoded = try JSONDecoder().decode(GLTFDocument.self, from: try GLTFWriter.jsonData(b.finish()))
    XCTAssertEqual(decoded.nodes?[0].extras, extras)
    XCTAssertEqual(decoded.scenes?[0].extras, ["note": .null])
  }
}
