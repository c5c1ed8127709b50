import Foundation
import XCTest

@testable import MatchSceneExport

/// Each test damages one aspect of a valid scene and checks the validator names it.
final class GLTFValidatorTests: XCTestCase {
  var document: GLTFDocument!

  override func setUpWithError() throws {
    document = try SyntheticScene.document()
  }

  /// Errors of `document` after `change`, through a GLB.
  func errors(_ change: (inout GLTFDocument) -> Void) throws -> [String] {
    var d = document!
    change(&d)
    return GLTFValidator.validate(glb: try GLTFWriter.glbData(d))
  }

  func assertReports(_ errors: [String], _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(
      errors.contains { $0.contains(fragment) }, "expected '\(fragment)' in \(errors)", file: file, line: line)
  }

  var ballPosition: Int { document.meshes!.first { $0.name == "ball" }!.primitives[0].attributes["POSITION"]! }
  var timeAccessor: Int { document.animations![0].samplers[0].input }
  var ballOutput: Int { document.output(animation: 0, node: document.node("ball")!, path: "translation")! }
  var limbRotationOutput: Int {
    document.output(animation: 0, node: document.node("P1/left_elbow-left_wrist")!, path: "rotation")!
  }

  /// Byte offset of accessor `i`'s first element in the binary buffer.
  func dataStart(_ i: Int) -> Int {
    let a = document.accessors![i]
    return (document.bufferViews![a.bufferView!].byteOffset ?? 0) + (a.byteOffset ?? 0)
  }

  func writeFloat(_ x: Float, at offset: Int, in d: inout GLTFDocument) {
    withUnsafeBytes(of: x.bitPattern.littleEndian) { d.binary.replaceSubrange(offset..<(offset + 4), with: $0) }
  }

  func testTheSyntheticSceneIsValid() throws {
    XCTAssertEqual(try errors { _ in }, [])
  }

  func testAccessorRunningPastItsBufferView() throws {
    let i = ballPosition
    assertReports(try errors { $0.accessors![i].count += 1 }, "accessors[\(i)]")
    assertReports(try errors { $0.accessors![i].byteOffset = 4 }, "bufferView")
  }

  func testBufferViewRunningPastItsBuffer() throws {
    let v = document.bufferViews!.count - 1
    assertReports(try errors { $0.bufferViews![v].byteLength += 4 }, "bufferViews[\(v)]: bytes")
    assertReports(try errors { $0.bufferViews![v].buffer = 3 }, "bufferViews[\(v)]: buffer 3 out of range")
  }

  func testComponentTypeAndTypeMustBeConsistent() throws {
    let i = ballPosition
    assertReports(try errors { $0.accessors![i].componentType = 5130 }, "componentType 5130")
    assertReports(try errors { $0.accessors![i].type = "VEC7" }, "type 'VEC7'")
    // VEC4 over VEC3 data: the data no longer fits and POSITION must be VEC3.
    let e = try errors { $0.accessors![i].type = "VEC4" }
    assertReports(e, "accessors[\(i)]: 42 × VEC4")
    assertReports(e, "POSITION: must be float VEC3")
  }

  func testMinMaxMustBePresentAndMatchTheData() throws {
    let i = ballPosition
    assertReports(try errors { $0.accessors![i].min = nil }, "POSITION accessor needs min and max")
    assertReports(try errors { $0.accessors![i].max![2] += 0.001 }, "accessors[\(i)]: max[2]")
    assertReports(try errors { $0.accessors![i].min = [0, 0] }, "min has 2 entries")
    let t = timeAccessor
    assertReports(try errors { $0.accessors![t].max = nil }, "animation input needs min and max")
  }

  func testNaNAndInfinityInFloatData() throws {
    let offset = dataStart(ballOutput) + 4
    assertReports(
      try errors { writeFloat(.nan, at: offset, in: &$0) }, "accessors[\(ballOutput)]: element 0 component 1 is nan")
    assertReports(try errors { writeFloat(.infinity, at: offset, in: &$0) }, "is inf")
  }

  func testAnimationTimesMustStrictlyIncrease() throws {
    let start = dataStart(timeAccessor)
    let e = try errors { writeFloat(0.02, at: start + 4 * 2, in: &$0) }  // key 2 = key 1's time
    assertReports(e, "times not strictly increasing at key 2")
    let t = timeAccessor
    assertReports(
      try errors {
        writeFloat(-1, at: start, in: &$0)
        $0.accessors![t].min = [-1]
      }, "first time -1.0 < 0")
  }

  func testSamplerOutputCountMustMatchInput() throws {
    let o = ballOutput
    assertReports(
      try errors {
        $0.accessors![o].count -= 1
        $0.accessors![o].max = nil
        $0.accessors![o].min = nil
      }, "output has 49 elements, input 50 × 1 expected")
  }

  func testRotationOutputsMustBeUnitQuaternions() throws {
    let offset = dataStart(limbRotationOutput) + 12  // w of the first key
    assertReports(
      try errors {
        writeFloat(2, at: offset, in: &$0)
        let i = limbRotationOutput
        $0.accessors![i].max![3] = 2
      }, "not a unit quaternion")
  }

  /// Rotation outputs may be normalised SHORTs (§3.11); their `min`/`max` are the stored integers
  /// (§3.6.2.5); translations and scales must be FLOAT; `normalized` never goes with FLOAT.
  func testNormalizedShortRotationsAndTheirBounds() throws {
    var options = SceneOptions()
    options.rotationEncoding = .normalizedShort
    document = try SyntheticScene.document(options: options)
    XCTAssertEqual(try errors { _ in }, [])
    let r = limbRotationOutput
    XCTAssertEqual(document.accessors![r].componentType, GLTFComponentType.short.rawValue)
    let max = document.accessors![r].max!
    XCTAssertTrue(max.allSatisfy { $0 == $0.rounded() && abs($0) <= 32767 }, "integers: \(max)")
    assertReports(
      try errors { $0.accessors![r].max = max.map { $0 / 32767 } }, "accessors[\(r)]: max[")
    assertReports(try errors { $0.accessors![r].normalized = nil }, "rotation output accessor \(r) has componentType 5122")
    let b = ballOutput
    assertReports(try errors { $0.accessors![b].normalized = true }, "normalized must not be true for float")
  }

  func testNodeHierarchyMustBeAcyclicWithOneParentEach() throws {
    let root = document.node("matchscene")!
    let ball = document.node("ball")!
    let cycle = try errors { $0.nodes![ball].children = [root] }
    assertReports(cycle, "cycle")
    assertReports(cycle, "scenes[0]: root node \(root) is a child")
    let p1 = document.node("P1")!
    let p2 = document.node("P2")!
    let nose2 = document.nodes![p2].children![0]
    assertReports(try errors { $0.nodes![p1].children!.append(nose2) }, "nodes[\(nose2)]: has more than one parent")
    assertReports(try errors { $0.nodes![ball].children = [ball] }, "is its own child")
    assertReports(try errors { $0.nodes![ball].children = [9999] }, "child 9999 out of range")
  }

  func testEveryReferencedIndexMustExist() throws {
    let ball = document.node("ball")!
    let camera = document.node("cam_left")!
    let ballMesh = document.nodes![ball].mesh!
    assertReports(try errors { $0.nodes![ball].mesh = 999 }, "mesh 999 out of range")
    assertReports(try errors { $0.nodes![camera].camera = 7 }, "camera 7 out of range")
    assertReports(try errors { $0.meshes![ballMesh].primitives[0].material = 99 }, "material 99 out of range")
    assertReports(
      try errors { $0.meshes![ballMesh].primitives[0].attributes["NORMAL"] = 100_000 }, "accessor 100000 out of range")
    assertReports(try errors { $0.meshes![ballMesh].primitives[0].indices = -1 }, "accessor -1 out of range")
    assertReports(try errors { $0.animations![0].channels[0].sampler = 100_000 }, "sampler 100000 out of range")
    assertReports(try errors { $0.animations![0].channels[0].target.node = 100_000 }, "target node 100000 out of range")
    assertReports(try errors { $0.animations![0].samplers[0].input = 100_000 }, "accessor 100000 out of range")
    assertReports(try errors { $0.scene = 3 }, "scene: index 3 out of range")
  }

  func testIndicesMustAddressExistingVertices() throws {
    let ballMesh = document.nodes![document.node("ball")!].mesh!
    let idx = document.meshes![ballMesh].primitives[0].indices!
    let start = dataStart(idx)
    let e = try errors { d in
      withUnsafeBytes(of: UInt16(42).littleEndian) { d.binary.replaceSubrange(start..<(start + 2), with: $0) }
    }
    assertReports(e, "index 0 is 42 but there are 42 vertices")
  }

  func testEmptyArraysAndDuplicateTargetsAreReported() throws {
    // The writer prunes empty arrays, so encode this one by hand.
    var d = document!
    d.extensionsUsed = []
    let json = try JSONEncoder().encode(d)
    assertReports(GLTFValidator.validate(gltfJSON: json, binary: d.binary), "extensionsUsed: empty array")
    let dup = try errors { $0.animations![0].channels.append($0.animations![0].channels[0]) }
    assertReports(dup, "targeted twice")
  }

  // MARK: - Hand-corrupted GLB bytes

  func testCorruptedGLBContainerIsReported() throws {
    let glb = try GLTFWriter.glbData(document)
    var badMagic = glb
    badMagic[0] = UInt8(ascii: "x")
    assertReports(GLTFValidator.validate(glb: badMagic), "magic")

    var badVersion = glb
    badVersion[4] = 1
    assertReports(GLTFValidator.validate(glb: badVersion), "version 1, expected 2")

    var badLength = glb
    badLength.append(contentsOf: [0, 0, 0, 0])
    assertReports(
      GLTFValidator.validate(glb: badLength), "length \(glb.count) differs from the file size \(glb.count + 4)")

    var misaligned = glb
    withUnsafeBytes(of: (UInt32(glb.count) - 2).littleEndian) { misaligned.replaceSubrange(8..<12, with: $0) }
    let jsonLength = glb.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self) }
    withUnsafeBytes(of: (jsonLength - 2).littleEndian) { misaligned.replaceSubrange(12..<16, with: $0) }
    misaligned.removeSubrange((20 + Int(jsonLength) - 2)..<(20 + Int(jsonLength)))
    assertReports(GLTFValidator.validate(glb: misaligned), "is not a multiple of 4")

    var truncated = glb
    truncated.removeLast(100)
    withUnsafeBytes(of: UInt32(truncated.count).littleEndian) { truncated.replaceSubrange(8..<12, with: $0) }
    assertReports(GLTFValidator.validate(glb: truncated), "runs past the end of the file")

    XCTAssertEqual(GLTFValidator.validate(glb: Data([1, 2, 3])).count, 1)
    assertReports(GLTFValidator.validate(gltfJSON: Data("{\"asset\":".utf8), binary: nil), "JSON: not a glTF document")
  }

  /// Skins (§3.7.3): joints, skeleton, inverse bind matrices, JOINTS_0 and WEIGHTS_0 are checked.
  func testSkinsAreChecked() throws {
    XCTAssertEqual(try errors { _ in }, [])
    assertReports(try errors { $0.skins![0].joints.append($0.skins![0].joints[0]) }, "lists a joint twice")
    assertReports(try errors { $0.skins![0].joints[0] = 9999 }, "a joint is out of range")
    assertReports(try errors { $0.skins![0].skeleton = $0.node("P2") }, "is not an ancestor of joint")
    assertReports(try errors { $0.skins![0].joints.removeLast() }, "matrices for")
    let body = document.node("P1/body")!
    assertReports(try errors { $0.nodes![body].skin = nil }, "mesh has JOINTS_0 but the node has no skin")
    assertReports(try errors { $0.nodes![body].skin = 7 }, "skin 7 out of range")
    let mesh = document.nodes![body].mesh!
    let weights = document.meshes![mesh].primitives[0].attributes["WEIGHTS_0"]!
    assertReports(
      try errors { self.writeFloat(0.5, at: self.dataStart(weights), in: &$0) }, "weights do not sum to 1")
    let joints = document.meshes![mesh].primitives[0].attributes["JOINTS_0"]!
    assertReports(
      try errors { $0.binary[self.dataStart(joints)] = 200 }, "names joint 200")
    let ibm = document.skins![0].inverseBindMatrices!
    assertReports(
      try errors { self.writeFloat(2, at: self.dataStart(ibm) + 4 * 15, in: &$0) }, "is not affine")
  }

  /// A joint's rest (its node's own transform) is orthonormal up to a uniform positive scale: the limb
  /// nodes carry no rest scale (their length is animated), and an uneven or zero one is reported.
  func testJointRestsHaveUniformPositiveScale() throws {
    let limb = try XCTUnwrap(document.node("P1/left_elbow-left_wrist"))
    XCTAssertNil(document.nodes![limb].scale, "a limb's rest has no scale")
    assertReports(try errors { $0.nodes![limb].scale = [1, 0.3, 1] }, "rest scale must be uniform and positive")
    assertReports(try errors { $0.nodes![limb].scale = [0, 0, 0] }, "rest scale must be uniform and positive")
    XCTAssertEqual(try errors { $0.nodes![limb].scale = [2, 2, 2] }, [])
  }
}
