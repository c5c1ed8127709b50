import Foundation
import TestSupport
import XCTest

@testable import MatchSceneExport

final class GLBLayoutTests: XCTestCase {
  func u32(_ d: Data, _ o: Int) -> UInt32 {
    d.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
  }

  func testHeaderAndChunksFollowTheGLBContainer() throws {
    let doc = try SyntheticScene.document()
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("scene.glb")
    try GLTFWriter.writeGLB(doc, to: url)
    let glb = try Data(contentsOf: url)

    XCTAssertEqual(Array(glb.prefix(4)), Array("glTF".utf8), "magic")
    XCTAssertEqual(u32(glb, 4), 2, "version")
    XCTAssertEqual(Int(u32(glb, 8)), glb.count, "total length")

    let jsonLength = Int(u32(glb, 12))
    XCTAssertEqual(u32(glb, 16), 0x4E4F_534A, "JSON chunk type")
    XCTAssertEqual(jsonLength % 4, 0)
    let json = glb.subdata(in: 20..<(20 + jsonLength))
    let text = String(decoding: json, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("{"))
    XCTAssertTrue(text.trimmingCharacters(in: .init(charactersIn: " ")).hasSuffix("}"), "padded with spaces only")
    XCTAssertNoThrow(try JSONDecoder().decode(GLTFDocument.self, from: json))

    let binStart = 20 + jsonLength
    XCTAssertEqual(binStart % 4, 0)
    let binLength = Int(u32(glb, binStart))
    XCTAssertEqual(u32(glb, binStart + 4), 0x004E_4942, "BIN chunk type")
    XCTAssertEqual(binLength % 4, 0)
    XCTAssertEqual(binStart + 8 + binLength, glb.count, "BIN is the last chunk")
    XCTAssertEqual(glb.subdata(in: (binStart + 8)..<glb.count), doc.binary)
    XCTAssertEqual(doc.buffers?.count, 1)
    XCTAssertNil(doc.buffers?[0].uri)
    XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
  }

  func testJSONChunkPaddingUsesSpacesAndBinPaddingZeros() throws {
    // A JSON length that is not a multiple of 4 and a binary of 6 bytes.
    var b = GLTFBuilder()
    _ = try b.addIndices16([0, 1, 2])
    var doc = b.finish()
    doc.asset.generator = "x"
    for extra in 0..<4 {
      doc.asset.copyright = String(repeating: "c", count: extra)
      let glb = try GLTFWriter.glbData(doc)
      let jsonLength = Int(u32(glb, 12))
      let raw = try GLTFWriter.jsonData(doc)
      XCTAssertEqual(jsonLength, (raw.count + 3) / 4 * 4)
      XCTAssertTrue(glb.subdata(in: (20 + raw.count)..<(20 + jsonLength)).allSatisfy { $0 == 0x20 })
      let binStart = 20 + jsonLength
      XCTAssertEqual(Int(u32(glb, binStart)), 8)
      XCTAssertEqual(Array(glb.suffix(2)), [0, 0], "BIN padded with zeros")
      XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
    }
  }

  func testDocumentWithoutBinaryDataHasNoBinChunk() throws {
    var b = GLTFBuilder()
    _ = b.addScene(GLTFScene(nodes: [b.addNode(GLTFNode(name: "n"))]))
    let glb = try GLTFWriter.glbData(b.finish())
    XCTAssertEqual(20 + Int(u32(glb, 12)), glb.count)
    XCTAssertEqual(GLTFValidator.validate(glb: glb), [])
  }

  func testGLTFWithBinWritesARelativePercentEncodedURI() throws {
    let doc = try SyntheticScene.document()
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("my scene.gltf")
    try GLTFWriter.write(doc, to: url)
    let written = try JSONDecoder().decode(GLTFDocument.self, from: Data(contentsOf: url))
    XCTAssertEqual(written.buffers?[0].uri, "my%20scene.bin")
    XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("my scene.bin")), doc.binary)
    XCTAssertEqual(GLTFValidator.validate(fileAt: url), [])
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertEqual(names, ["my scene.bin", "my scene.gltf"], "no temporary files left behind")
  }
}
