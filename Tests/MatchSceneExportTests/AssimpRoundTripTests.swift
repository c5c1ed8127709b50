import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// Writes the synthetic scene and reads it back with assimp 5.x (a reader we did not write).
final class AssimpRoundTripTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = try makeTemporaryFolder("matchscene-export")
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func writeScene(_ name: String, options: SceneOptions = SceneOptions()) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try GLTFWriter.write(try SyntheticScene.document(options: options), to: url)
    return url
  }

  func testGLBAndGLTFReimportWithNamesAnimationAndExactBallKeys() throws {
    for name in ["scene.glb", "scene.gltf"] {
      let url = try writeScene(name)
      XCTAssertEqual(GLTFValidator.validate(fileAt: url), [], name)
      let scene = try AssimpScene(contentsOf: url)

      let nodes = scene.nodes
      let names = Set(nodes.map(\.name))
      for expected in ["matchscene", "ball", "venue", "P1", "P2", "cam_left", "cam_right", "P1/left_elbow-left_wrist"] {
        XCTAssertTrue(names.contains(expected), "\(name): \(expected)")
      }
      for keypoint in Skeleton.coco17.keypoints {
        XCTAssertEqual(
          nodes.filter { $0.name == keypoint }.map(\.parent).sorted { ($0 ?? "") < ($1 ?? "") }, ["P1", "P2"], keypoint)
      }
      XCTAssertEqual(nodes.first { $0.name == "ball" }?.parent, "matchscene")
      XCTAssertEqual(nodes.first?.name, "matchscene", "the root")

      // assimp 5.2's glTF2 importer reports times in milliseconds: mTicksPerSecond = 1000.
      XCTAssertEqual(scene.animations.map(\.name), ["match"])
      let match = scene.animations[0]
      XCTAssertEqual(match.ticksPerSecond, 1000)
      assertClose(try XCTUnwrap(match.durationSeconds), Double(SyntheticScene.frameCount - 1) / 50, absolute: 1e-6)
      // Ball, 2 × (17 keypoints + 16 limbs), and the 2 player nodes (visibility).
      XCTAssertEqual(match.channels.count, 1 + 2 * (17 + 16) + 2)
      XCTAssertTrue(match.channels.allSatisfy { $0.positionKeyCount == SyntheticScene.frameCount })

      // The ball is a child of the root, so its local translation is in calibration world coordinates.
      let keys = try XCTUnwrap(scene.positionKeys(animation: "match", node: "ball"))
      XCTAssertEqual(keys.count, SyntheticScene.frameCount)
      for (k, key) in keys.enumerated() {
        assertClose(key.time, Double(k) / 50, absolute: 1e-6)
        assertClose(key.value, SyntheticScene.ball(t: Double(k) / 50), absolute: 1e-5)
      }

      XCTAssertEqual(scene.meshCount, 8, "5 venue parts, a skinned body per player, ball")
      XCTAssertEqual(scene.meshes.count, scene.meshCount)
      XCTAssertEqual(scene.meshes.first { $0.name == "ball" }?.faceCount, 80)
    }
  }

  func testAssimpSeesTheRootRotationAndTheCameras() throws {
    let scene = try AssimpScene(contentsOf: try writeScene("scene.glb"))
    let m = try XCTUnwrap(scene.nodes.first { $0.name == "matchscene" }).localTransform
    // Row-major 4×4: world +z (third column) becomes +y.
    assertClose(SIMD3(m[2], m[6], m[10]), SIMD3(0, 1, 0), absolute: 1e-6)
    assertClose(SIMD3(m[0], m[4], m[8]), SIMD3(1, 0, 0), absolute: 1e-6)

    XCTAssertEqual(scene.cameras.map(\.name), ["cam_left", "cam_right"])
    for (info, camera) in zip(scene.cameras, SyntheticScene.cameras) {
      let aspect = Double(camera.imageSize.width) / Double(camera.imageSize.height)
      let yfov = 2 * atan(Double(camera.imageSize.height) / (2 * camera.fy))
      assertClose(info.aspect, aspect, absolute: 1e-6)
      // assimp 5.2's glTF2 importer sets mHorizontalFOV = yfov × aspectRatio (not 2·atan(aspect·tan(yfov/2))).
      assertClose(info.horizontalFOV, yfov * aspect, absolute: 1e-5)
      assertClose(info.clipNear, 0.05, absolute: 1e-7)
    }
  }

  /// Converts the GLB to each assimp format, re-imports it and records what survives. The formats
  /// MatchScene offers (ASCII FBX, OBJ, Collada, glTF) must re-import; the table is printed for the report.
  func testConversionsReimport() throws {
    let glb = try writeScene("scene.glb", options: SyntheticScene.assimpOptions)
    var report: [String] = []
    var results: [String: AssimpScene] = [:]
    for format in ["fbxa", "fbx", "collada", "obj", "glb2", "gltf2", "ply", "stl"] {
      let ext = Assimp.exportFormats().first { $0.id == format }!.fileExtension
      let out = folder.appendingPathComponent("converted-\(format).\(ext)")
      do {
        try Assimp.convert(glb, to: out, format: format)
        let s = try AssimpScene(contentsOf: out)
        results[format] = s
        let anim = s.animations.first.map {
          "\($0.name) \($0.channels.count) channels \(String(format: "%.4f", $0.durationSeconds ?? -1)) s"
        }
        report.append(
          "\(format): re-imports; \(s.nodes.count) nodes, \(s.meshes.count) meshes, \(s.cameras.count) cameras, animation: \(anim ?? "none")"
        )
      } catch {
        report.append("\(format): \(error)")
      }
    }
    print("assimp \(Assimp.version) conversions of the synthetic scene:\n  " + report.joined(separator: "\n  "))

    let fbx = try XCTUnwrap(results["fbxa"], report.joined(separator: "\n"))
    XCTAssertEqual(fbx.meshes.count, 10)
    XCTAssertGreaterThanOrEqual(fbx.nodes.count, 73)
    // FBX has an implicit root: `matchscene` becomes `RootNode` and its rotation moves into its children.
    for name in ["ball", "venue", "P1", "P2", "nose", "P2/left_elbow-left_wrist"] {
      XCTAssertTrue(fbx.nodes.contains { $0.name == name }, name)
    }
    let p1 = try XCTUnwrap(fbx.nodes.first { $0.name == "P1" }).localTransform
    assertClose(SIMD3(p1[2], p1[6], p1[10]), SIMD3(0, 1, 0), absolute: 1e-6, "P1 carries the z-up → y-up turn")
    assertClose(try XCTUnwrap(fbx.animations.first?.durationSeconds), 0.98, absolute: 1e-3, "FBX key times in seconds")
    let fbxBall = try XCTUnwrap(fbx.positionKeys(animation: fbx.animations[0].name, node: "ball"))
    XCTAssertEqual(fbxBall.count, SyntheticScene.frameCount)
    let p = SyntheticScene.ball(t: 0.2)
    assertClose(fbxBall[10].time, 0.2, absolute: 1e-3)
    assertClose(fbxBall[10].value, SIMD3(p.x, p.z, -p.y), absolute: 1e-5, "ball keys in y-up coordinates")

    let obj = try XCTUnwrap(results["obj"], report.joined(separator: "\n"))
    XCTAssertEqual(obj.meshes.count, 10)
    // OBJ bakes every instance: venue 74, 2 × 17 joint spheres × 80, 2 × 16 limbs × 20, ball 80 triangles.
    XCTAssertEqual(obj.meshes.map(\.faceCount).reduce(0, +), 74 + 34 * 80 + 32 * 20 + 80)
    XCTAssertTrue(obj.animations.isEmpty, "OBJ has no animation")

    let dae = try XCTUnwrap(results["collada"], report.joined(separator: "\n"))
    XCTAssertEqual(dae.cameras.count, 2)
    assertClose(try XCTUnwrap(dae.animations.first?.durationSeconds), 0.98, absolute: 1e-3)

    for format in ["glb2", "gltf2"] {
      let s = try XCTUnwrap(results[format], report.joined(separator: "\n"))
      XCTAssertEqual(s.meshes.count, 10)
      assertClose(try XCTUnwrap(s.animations.first?.durationSeconds), 0.98, absolute: 1e-6)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("converted-obj.mtl").path))
    XCTAssertFalse(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix(".") },
      "no staging folders or temporary files left behind")
  }

  func testImportAndConversionFailuresThrowAssimpErrors() throws {
    let junk = folder.appendingPathComponent("junk.glb")
    try Data("not a model".utf8).write(to: junk)
    XCTAssertThrowsError(try AssimpScene(contentsOf: junk)) { error in
      let e = error as? AssimpError
      XCTAssertNotNil(e)
      XCTAssertTrue(e?.message.contains("junk.glb") == true)
      XCTAssertFalse(e?.message.hasSuffix("unknown error") ?? true, "carries assimp's own message: \(error)")
    }
    XCTAssertThrowsError(try AssimpScene(contentsOf: folder.appendingPathComponent("missing.obj")))
    let glb = try writeScene("scene.glb")
    XCTAssertThrowsError(try Assimp.convert(glb, to: folder.appendingPathComponent("x.abc"), format: "abc")) { error in
      XCTAssertTrue("\(error)".contains("fbxa"), "lists the formats: \(error)")
    }
  }

  func testFormatListings() {
    let ids = Assimp.exportFormats().map(\.id)
    for id in ["fbxa", "collada", "obj", "glb2", "gltf2", "ply", "stl"] { XCTAssertTrue(ids.contains(id), id) }
    XCTAssertEqual(Assimp.exportFormats().first { $0.id == "collada" }?.fileExtension, "dae")
    let extensions = Assimp.importExtensions()
    for ext in ["*.glb", "*.gltf", "*.fbx", "*.obj", "*.dae"] { XCTAssertTrue(extensions.contains(ext), ext) }
    XCTAssertTrue(Assimp.version.hasPrefix("5."), Assimp.version)
  }

  static let cubeOBJ = """
    # unit cube, 2 m wide, standing on the floor
    v -1 -1 0
    v 1 -1 0
    v 1 1 0
    v -1 1 0
    v -1 -1 2
    v 1 -1 2
    v 1 1 2
    v -1 1 2
    f 1 4 3 2
    f 5 6 7 8
    f 1 2 6 5
    f 2 3 7 6
    f 3 4 8 7
    f 4 1 5 8
    """

  func testLoadMeshReadsTrianglesWithNormals() throws {
    let url = folder.appendingPathComponent("cube.obj")
    try Self.cubeOBJ.write(to: url, atomically: true, encoding: .utf8)
    let meshes = try Assimp.loadMesh(url)
    XCTAssertEqual(meshes.count, 1)
    let cube = meshes[0]
    XCTAssertEqual(cube.indices.count, 36, "6 quads → 12 triangles")
    XCTAssertEqual(cube.normals.count, cube.positions.count)
    for n in cube.normals { assertClose(Double((n * n).sum()).squareRoot(), 1, absolute: 1e-5) }
    XCTAssertTrue(cube.indices.allSatisfy { Int($0) < cube.positions.count })
    XCTAssertEqual(cube.positions.map(\.z).max(), 2)

    let junk = folder.appendingPathComponent("points.obj")
    try "v 0 0 0\nv 1 0 0\np 1\np 2\n".write(to: junk, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try Assimp.loadMesh(junk))
  }

  func testUserVenueMeshReplacesTheGeneratedVenue() throws {
    let url = folder.appendingPathComponent("cube.obj")
    try Self.cubeOBJ.write(to: url, atomically: true, encoding: .utf8)
    var options = SceneOptions(venueMesh: url)
    // The glTF module reads no mesh files itself: without loading, build says how.
    XCTAssertThrowsError(try SyntheticScene.document(options: options)) { error in
      XCTAssertTrue("\(error)".contains("loadVenueMesh"), "\(error)")
    }
    try options.loadVenueMesh()
    let doc = try SyntheticScene.document(options: options)
    let venue = doc.meshes![doc.nodes![doc.node("venue")!].mesh!]
    XCTAssertEqual(venue.primitives.count, 1)
    let position = doc.accessors![venue.primitives[0].attributes["POSITION"]!]
    XCTAssertEqual(position.min, [-1, -1, 0])
    XCTAssertEqual(position.max, [1, 1, 2])
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    var missing = SceneOptions(venueMesh: folder.appendingPathComponent("nope.obj"))
    XCTAssertThrowsError(try missing.loadVenueMesh())
  }

  /// assimp 5.2's exporters abort the process on a glTF node extension (the light); the conversion
  /// refuses it with an error naming the node instead.
  func testNodeExtensionsAreRefusedNotACrash() throws {
    let glb = try writeScene("lit.glb")
    XCTAssertThrowsError(try Assimp.convert(glb, to: folder.appendingPathComponent("lit.fbx"), format: "fbxa")) {
      XCTAssertTrue("\($0)".contains("node 'sun'"), "\($0)")
    }
  }
}
