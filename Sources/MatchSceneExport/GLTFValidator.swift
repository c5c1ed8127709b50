import Foundation

/// A structural glTF 2.0 checker for the files MatchScene writes (and any small glTF like them).
///
/// It checks what a viewer relies on and the glTF 2.0 specification requires, without judging style:
/// the GLB container (§4.4: magic, version, length, chunk types, 4-byte chunk alignment); buffer views
/// inside their buffers; accessors inside their buffer views with consistent component type, type, count
/// and alignment (§3.6.2); `min`/`max` present where required (POSITION, animation inputs) and equal to the
/// data within Float32 precision wherever present (the stored integers for normalised accessors,
/// §3.6.2.5); `normalized` only on BYTE and SHORT types; no NaN or infinity in float data; every referenced index
/// (scene, node, mesh, material, camera, accessor, buffer view, buffer, sampler) valid; the node hierarchy
/// acyclic with at most one parent per node and scene roots without parents (§3.5.1); animation inputs
/// strictly increasing and non-negative, output counts matching (§3.11), output types and component
/// types matching their target paths (translation and scale FLOAT, rotation FLOAT or normalised
/// integers), and rotations unit quaternions (after de-normalising); skins with valid joints sharing a
/// root, one affine float MAT4 inverse bind matrix per joint, and skinned meshes with JOINTS_0 within
/// the joints and WEIGHTS_0 summing to 1 (§3.7.3).
///
/// It is not the Khronos glTF-Validator: extensions, textures and morph targets are not checked.
public enum GLTFValidator {
  /// Problems found in a GLB file, each `location: message`; empty when it is valid.
  public static func validate(glb data: Data) -> [String] {
    var errors: [String] = []
    let bytes = Data(data)  // re-based so that offsets start at 0 even for a slice
    func u32(_ offset: Int) -> UInt32 {
      bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }
    guard bytes.count >= 12 else { return ["GLB: \(bytes.count) bytes, shorter than the 12-byte header"] }
    if u32(0) != GLTFWriter.glbMagic {
      errors.append(String(format: "GLB header: magic 0x%08X is not 'glTF'", u32(0)))
      return errors
    }
    if u32(4) != 2 { errors.append("GLB header: version \(u32(4)), expected 2") }
    if Int(u32(8)) != bytes.count {
      errors.append("GLB header: length \(u32(8)) differs from the file size \(bytes.count)")
    }
    var offset = 12
    var chunks: [(type: UInt32, body: Data)] = []
    while offset < bytes.count {
      guard offset + 8 <= bytes.count else {
        errors.append("GLB chunk \(chunks.count) at byte \(offset): truncated chunk header")
        break
      }
      let length = Int(u32(offset))
      let type = u32(offset + 4)
      if length % 4 != 0 {
        errors.append("GLB chunk \(chunks.count): length \(length) is not a multiple of 4")
      }
      guard offset + 8 + length <= bytes.count else {
        errors.append("GLB chunk \(chunks.count): length \(length) runs past the end of the file")
        break
      }
      chunks.append((type, bytes.subdata(in: (offset + 8)..<(offset + 8 + length))))
      offset += 8 + length
    }
    guard let first = chunks.first else {
      errors.append("GLB: no JSON chunk")
      return errors
    }
    if first.type != GLTFWriter.jsonChunkType {
      errors.append(String(format: "GLB chunk 0: type 0x%08X, expected JSON", first.type))
      return errors
    }
    var binary: Data?
    if chunks.count > 1 {
      if chunks[1].type == GLTFWriter.binChunkType {
        binary = chunks[1].body
      } else {
        errors.append(String(format: "GLB chunk 1: type 0x%08X, expected BIN", chunks[1].type))
      }
    }
    for (i, c) in chunks.enumerated().dropFirst(2)
    where c.type == GLTFWriter.jsonChunkType || c.type == GLTFWriter.binChunkType {
      errors.append("GLB chunk \(i): a second JSON or BIN chunk")
    }
    errors += validate(gltfJSON: first.body, binary: binary, isGLB: true)
    return errors
  }

  /// Problems found in glTF JSON whose first buffer holds `binary` (the GLB BIN chunk or the `.bin`
  /// file); empty when valid. Other buffers cannot be checked and are reported.
  public static func validate(gltfJSON: Data, binary: Data?) -> [String] {
    validate(gltfJSON: gltfJSON, binary: binary, isGLB: false)
  }

  /// Problems found in a `.glb` or `.gltf` file; a `.gltf` file's first buffer is read from its relative URI.
  public static func validate(fileAt url: URL) -> [String] {
    guard let data = FileManager.default.contents(atPath: url.path) else { return ["\(url.path): cannot read"] }
    if url.pathExtension.lowercased() == "glb" { return validate(glb: data) }
    var binary: Data?
    if let doc = try? JSONDecoder().decode(GLTFDocument.self, from: data), let uri = doc.buffers?.first?.uri,
      !uri.hasPrefix("data:"), let path = uri.removingPercentEncoding
    {
      binary = FileManager.default.contents(atPath: url.deletingLastPathComponent().appendingPathComponent(path).path)
      if binary == nil { return ["buffers[0]: cannot read '\(uri)' next to \(url.lastPathComponent)"] }
    }
    return validate(gltfJSON: data, binary: binary)
  }

  static func validate(gltfJSON: Data, binary: Data?, isGLB: Bool) -> [String] {
    let document: GLTFDocument
    do {
      document = try JSONDecoder().decode(GLTFDocument.self, from: gltfJSON)
    } catch {
      return ["JSON: not a glTF document: \(error)"]
    }
    var check = GLTFValidation(document: document, binary: binary, isGLB: isGLB)
    check.run()
    return check.errors
  }
}
