import Foundation
import TestSupport
import XCTest

@testable import MatchSceneExport

/// The GLB binary is kept as the builder's pieces (`GLTFBinary`) and written piece by piece: the same
/// bytes as one joined buffer, without a second copy of the samples.
final class GLBStreamingTests: XCTestCase {
  /// Little-endian bytes computed by hand, not by the code under test.
  private func le32(_ x: UInt32) -> [UInt8] { (0..<4).map { UInt8((x >> (8 * UInt32($0))) & 0xff) } }
  private func le16(_ x: Int16) -> [UInt8] { [UInt8(UInt16(bitPattern: x) & 0xff), UInt8(UInt16(bitPattern: x) >> 8)] }

  func testPiecesHoldTheLittleEndianBytesInOrder() {
    let floats: [Float] = [1.5, -0.0, 3e-39, -123.25]
    let shorts: [Int16] = [1, -2, 32767]
    var binary = GLTFBinary()
    binary.append(floats)
    binary.append(shorts)  // 6 bytes: the next piece needs 2 bytes of padding
    binary.pad(toMultipleOf: 4)
    binary.append(Data([9, 8, 7]))
    binary.pad(toMultipleOf: 10_000)  // 9,975 zero bytes: more than one block of padding
    var expected: [UInt8] = floats.flatMap { le32($0.bitPattern) }
    expected += shorts.flatMap { le16($0) }
    expected += [0, 0, 9, 8, 7]
    expected += [UInt8](repeating: 0, count: 10_000 - expected.count)
    XCTAssertEqual(binary.count, 10_000)
    XCTAssertEqual([UInt8](binary.data), expected)
    var streamed: [UInt8] = []
    binary.forEachPiece { streamed += $0 }
    XCTAssertEqual(streamed, expected)
    // Equal bytes split differently are equal; one byte changed is not.
    XCTAssertEqual(binary, GLTFBinary(Data(expected)))
    expected[expected.count - 1] = 1
    XCTAssertNotEqual(binary, GLTFBinary(Data(expected)))
  }

  func testBuilderKeepsTheSampleArrayItselfNotACopy() throws {
    let samples = (0..<30_000).map { Float($0) * 1e-3 }
    var builder = GLTFBuilder()
    _ = try builder.addFloats(samples, type: .vec3, usage: .animation, name: "samples")
    let document = builder.finish()
    XCTAssertEqual(document.binaryPieces.count, 4 * samples.count)
    guard case .floats(let kept) = document.binaryPieces.pieces.first else {
      return XCTFail("the samples are not kept as their array: \(document.binaryPieces.pieces.count) pieces")
    }
    // Same storage: building the scene did not copy its samples into a second buffer.
    XCTAssertEqual(kept.withUnsafeBufferPointer { $0.baseAddress }, samples.withUnsafeBufferPointer { $0.baseAddress })
  }

  /// A generated match's scene written by `writeGLB` (pieces one after another) against the GLB put
  /// together here from the joined binary and the JSON (glTF 2.0 §4.4): byte for byte, and valid.
  func testStreamedGLBEqualsTheFileBuiltFromTheJoinedBuffer() throws {
    var b = GLTFBuilder()
    _ = try b.addIndices16([0, 1, 2])  // 6 bytes: padding inside the binary
    var doc = b.finish()
    let scene = try SyntheticScene.document()
    for document in [doc, scene] {
      doc = document
      let url = try makeTemporaryFolder("glb").appendingPathComponent("scene.glb")
      try GLTFWriter.writeGLB(doc, to: url)
      var json = [UInt8](try GLTFWriter.jsonData(doc))
      while json.count % 4 != 0 { json.append(0x20) }
      var bin = [UInt8](doc.binary)
      while bin.count % 4 != 0 { bin.append(0) }
      var expected = le32(0x4654_6C67) + le32(2) + le32(UInt32(12 + 8 + json.count + 8 + bin.count))
      expected += le32(UInt32(json.count)) + le32(0x4E4F_534A) + json
      expected += le32(UInt32(bin.count)) + le32(0x004E_4942) + bin
      let written = try Data(contentsOf: url)
      XCTAssertEqual(written.count, expected.count)
      XCTAssertTrue([UInt8](written) == expected, "streamed GLB differs from the joined one")
      XCTAssertEqual(written, try GLTFWriter.glbData(doc))
      XCTAssertEqual(GLTFValidator.validate(glb: written), [])
    }
    XCTAssertGreaterThan(scene.binaryPieces.pieces.count, 10, "the scene's binary is in pieces")
  }
}
