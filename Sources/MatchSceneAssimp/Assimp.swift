internal import CAssimp
import Foundation

/// File conversion and mesh reading through assimp 5.x (Open Asset Import Library, https://assimp.org).
public enum Assimp {
  /// The linked assimp's version, `major.minor.patch`.
  public static var version: String {
    "\(aiGetVersionMajor()).\(aiGetVersionMinor()).\(aiGetVersionPatch())"
  }

  /// The formats assimp can write: its format id (for `convert`), usual file extension and description.
  public static func exportFormats() -> [(id: String, fileExtension: String, description: String)] {
    (0..<aiGetExportFormatCount()).compactMap { i in
      guard let desc = aiGetExportFormatDescription(i) else { return nil }
      defer { aiReleaseExportFormatDescription(desc) }
      return (
        String(cString: desc.pointee.id), String(cString: desc.pointee.fileExtension),
        String(cString: desc.pointee.description)
      )
    }
  }

  /// The file extensions assimp can read, as assimp lists them: `*.3ds;*.obj;…`.
  public static func importExtensions() -> String {
    var list = aiString()
    aiGetExtensionList(&list)
    return list.swiftString
  }

  /// Reads `input` and writes it as `output` in assimp export format `format` (see `exportFormats()`;
  /// e.g. `fbxa` ASCII FBX, `fbx` binary FBX, `collada`, `obj`, `glb2`, `gltf2`, `ply`, `stl`).
  ///
  /// The exporter writes into a fresh temporary folder beside `output` under the final file name (some
  /// formats write side files named after it, such as `.mtl` or `.bin`); every file it produced is then
  /// renamed into `output`'s folder, the main file last, so no reader sees a half-written file.
  /// - Throws: `AssimpError` for an unknown format, an unreadable input or a failed export.
  public static func convert(_ input: URL, to output: URL, format: String) throws {
    let formats = exportFormats()
    guard formats.contains(where: { $0.id == format }) else {
      throw AssimpError(
        "unknown export format '\(format)'; available: \(formats.map(\.id).joined(separator: ", "))")
    }
    let scene = try AssimpScene(contentsOf: input, postProcess: .roundTrip)
    if let node = nodeWithNestedMetadata(scene.raw.pointee.mRootNode) {
      throw AssimpError(
        "cannot export \(input.lastPathComponent) as \(format): node '\(node)' carries glTF extensions or nested "
          + "extras, which assimp \(version)'s exporters abort on (SceneCombiner copies no nested metadata); "
          + "write the scene without them (SceneOptions.includeLight = false for MatchScene's light)")
    }
    let folder = output.deletingLastPathComponent()
    let staging = folder.appendingPathComponent(".matchscene-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: staging) }
    let staged = staging.appendingPathComponent(output.lastPathComponent)
    if format.hasPrefix("fbx") || format == "collada" {
      // Workarounds for assimp 5.2's exporters, applied to a copy of the scene (see AssimpSceneEdits.swift):
      // FBX and Collada write key times as if ticks were seconds; FBX drops the root node's transform
      // and truncates the animation's length to whole seconds.
      var copy: UnsafeMutablePointer<aiScene>?
      aiCopyScene(scene.raw, &copy)
      guard let copy else { throw AssimpError("cannot copy the scene of \(input.lastPathComponent)") }
      defer { aiFreeScene(copy) }
      AssimpSceneEdits.retimeToSeconds(copy)
      if format == "collada" { AssimpSceneEdits.restoreGLTFCameras(copy) }
      if format.hasPrefix("fbx") {
        AssimpSceneEdits.bakeRootTransformIntoChildren(copy)
        AssimpSceneEdits.roundDurationsUpToWholeSeconds(copy)
      }
      try AssimpError.check(
        aiExportScene(copy, format, staged.path, 0), "export \(input.lastPathComponent) as \(format)")
    } else {
      try AssimpError.check(
        aiExportScene(scene.raw, format, staged.path, 0), "export \(input.lastPathComponent) as \(format)")
    }
    withExtendedLifetime(scene) {}
    guard FileManager.default.fileExists(atPath: staged.path) else {
      throw AssimpError("export as \(format) reported success but wrote no \(output.lastPathComponent)")
    }
    let produced = try FileManager.default.contentsOfDirectory(atPath: staging.path)
    for name in produced.sorted() where name != output.lastPathComponent {
      try move(staging.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    try move(staged, to: output)
  }

  /// The name of the first node (depth first) whose metadata holds nested metadata, which assimp 5.2's
  /// glTF importer makes of node `extensions` (e.g. `KHR_lights_punctual`) and object-valued `extras`.
  /// Workaround: assimp 5.2's exporters copy the scene first, and its SceneCombiner asserts (aborting the
  /// process) on metadata of type AI_AIMETADATA. Remove once the assimp we link copies nested metadata.
  static func nodeWithNestedMetadata(_ node: UnsafeMutablePointer<aiNode>?) -> String? {
    guard let node else { return nil }
    if let meta = node.pointee.mMetaData {
      for i in 0..<Int(meta.pointee.mNumProperties) where meta.pointee.mValues[i].mType == AI_AIMETADATA {
        return node.pointee.mName.swiftString
      }
    }
    for c in 0..<Int(node.pointee.mNumChildren) {
      if let name = nodeWithNestedMetadata(node.pointee.mChildren[c]) { return name }
    }
    return nil
  }

  private static func move(_ from: URL, to: URL) throws {
    if rename(from.path, to.path) != 0 {
      throw AssimpError("cannot move \(from.lastPathComponent) to \(to.path): \(String(cString: strerror(errno)))")
    }
  }

  /// Reads every triangle mesh of a user's file with node transforms baked in (`aiProcess_PreTransformVertices`),
  /// triangulated, identical vertices joined and normals generated where missing. Coordinates are taken
  /// as they are in the file (metres; no axis conversion). Point and line primitives are skipped.
  /// - Throws: `AssimpError` when the file cannot be read or holds no triangles.
  public static func loadMesh(_ url: URL) throws -> [AssimpTriangleMesh] {
    let scene = try AssimpScene(
      contentsOf: url,
      postProcess: [
        .triangulate, .joinIdenticalVertices, .generateNormals, .preTransformVertices, .sortByPrimitiveType,
      ])
    let raw = scene.raw.pointee
    var out: [AssimpTriangleMesh] = []
    for i in 0..<Int(raw.mNumMeshes) {
      guard let mesh = raw.mMeshes[i]?.pointee, mesh.mPrimitiveTypes & aiPrimitiveType_TRIANGLE.rawValue != 0,
        mesh.mNumVertices > 0
      else { continue }
      let n = Int(mesh.mNumVertices)
      let positions = (0..<n).map {
        SIMD3<Float>(Float(mesh.mVertices[$0].x), Float(mesh.mVertices[$0].y), Float(mesh.mVertices[$0].z))
      }
      let normals: [SIMD3<Float>] =
        mesh.mNormals.map { normals in
          (0..<n).map { SIMD3<Float>(Float(normals[$0].x), Float(normals[$0].y), Float(normals[$0].z)) }
        } ?? [SIMD3<Float>](repeating: SIMD3(0, 0, 1), count: n)
      var indices: [UInt32] = []
      indices.reserveCapacity(Int(mesh.mNumFaces) * 3)
      for f in 0..<Int(mesh.mNumFaces) {
        let face = mesh.mFaces[f]
        guard face.mNumIndices == 3 else { continue }
        indices += [face.mIndices[0], face.mIndices[1], face.mIndices[2]]
      }
      if !indices.isEmpty { out.append((positions, normals, indices)) }
    }
    withExtendedLifetime(scene) {}
    guard !out.isEmpty else { throw AssimpError("\(url.path): no triangle meshes") }
    return out
  }
}
