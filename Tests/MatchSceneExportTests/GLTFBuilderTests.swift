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

  /// Normalised SHORTs (§3.11) are stored as little-endian Int16 with `min`/`max` in the stored
  /// integers (§3.6.2.5: `normalized` has no effect on them); views into them step 8 bytes a VEC4.
  func testNormalizedShortsStoreTheIntegersWithIntegerBounds() throws {
    var b = GLTFBuilder()
    _ = try b.addScalars([0])  // 4 bytes first
    let q = try b.addNormalizedShorts([0, 0, 0, 32767, -23170, 0, 0, 23170, 100, -200, 300, -32767], type: .vec4)
    let stored: [Int16] = [-23170, 0, 0, 23170, 100, -200, 300, -32767]
    let view = b.addView(of: q, elements: 1..<3, values: stored[...])
    let doc = b.finish()
    let a = doc.accessors![q]
    XCTAssertEqual(a.componentType, GLTFComponentType.short.rawValue)
    XCTAssertEqual(a.normalized, true)
    XCTAssertEqual(a.count, 3)
    XCTAssertEqual(a.min, [-23170, -200, 0, -32767])
    XCTAssertEqual(a.max, [100, 0, 300, 32767])
    XCTAssertNil(doc.bufferViews![a.bufferView!].target, "animation data has no target")
    XCTAssertEqual(doc.bufferViews![a.bufferView!].byteLength, 24)
    XCTAssertEqual(doc.values(q)[3], 1)
    XCTAssertEqual(doc.values(q)[4], -23170.0 / 32767)
    let v = doc.accessors![view]
    XCTAssertEqual(v.bufferView, a.bufferView)
    XCTAssertEqual(v.byteOffset, 8)
    XCTAssertEqual(v.normalized, true)
    XCTAssertEqual(v.min, [-23170, -200, 0, -32767])
    XCTAssertEqual(v.max, [100, 0, 300, 23170])
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    XCTAssertThrowsError(try b.addNormalizedShorts([1, 2, 3], type: .vec4), "not whole VEC4s")
    XCTAssertThrowsError(try b.addNormalizedShorts([], type: .vec4))
  }

  /// Float bounds are written as the shortest decimals that read back as the same Float32.
  func testFloatBoundsAreWrittenAsShortestFloat32Decimals() throws {
    var b = GLTFBuilder()
    _ = try b.addVec3([SIMD3(0.1, -0.3, 3)], usage: .animation)
    let json = String(decoding: try GLTFWriter.jsonData(b.finish()), as: UTF8.self)
    XCTAssertTrue(json.contains("\"max\":[0.1,-0.3,3]"), json)
    let back = try JSONDecoder().decode(GLTFDocument.self, from: Data(json.utf8))
    XCTAssertEqual(back.accessors![0].max!.map(Float.init), [0.1, -0.3, 3])
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
