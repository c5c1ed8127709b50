import Foundation
import MatchSceneCore

/// Writes `GLTFDocument`s as binary glTF (`.glb`, glTF 2.0 §4.4) or as `.gltf` JSON with a `.bin`
/// file beside it (§3.6.1.1, relative URI). Every file goes through `AtomicFile`.
public enum GLTFWriter {
  /// GLB magic `glTF` (§4.4.2), read as a little-endian UInt32.
  public static let glbMagic: UInt32 = 0x4654_6C67
  /// Chunk type of the JSON chunk, ASCII `JSON` (§4.4.3.1).
  public static let jsonChunkType: UInt32 = 0x4E4F_534A
  /// Chunk type of the binary chunk, ASCII `BIN` and a zero (§4.4.3.1).
  public static let binChunkType: UInt32 = 0x004E_4942

  /// The JSON text of `document` (UTF-8, keys sorted so output is reproducible, empty arrays left out).
  public static func jsonData(_ document: GLTFDocument) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(document.pruned())
  }

  /// The GLB bytes of `document`: a 12-byte header, the JSON chunk padded with spaces to 4 bytes, and a
  /// BIN chunk holding `document.binary` padded with zeros (left out when there is no binary data).
  /// The first buffer must have no `uri` (§4.4.3.3).
  /// - Throws: `GLTFError` when the first buffer has a `uri` or its length disagrees with the data.
  public static func glbData(_ document: GLTFDocument) throws -> Data {
    let chunks = try glbChunks(document)
    var out = Data(capacity: chunks.reduce(0) { $0 + $1.count })
    for chunk in chunks { out.append(chunk) }
    return out
  }

  /// `glbData` in pieces to be written one after the other: the header with the JSON chunk, then the
  /// BIN chunk's header and its data (not copied: a 10-minute match's scene holds 60 MB of it).
  static func glbChunks(_ document: GLTFDocument) throws -> [Data] {
    var doc = document.pruned()
    if let first = doc.buffers?.first {
      guard first.uri == nil else { throw GLTFError("the GLB buffer must not have a uri") }
      guard first.byteLength <= doc.binary.count, doc.binary.count - first.byteLength < 4 else {
        throw GLTFError("buffers[0].byteLength \(first.byteLength) disagrees with \(doc.binary.count) bytes of data")
      }
    } else {
      doc.binary = Data()
    }
    var json = try jsonData(doc)
    while json.count % 4 != 0 { json.append(0x20) }
    var bin = doc.binary
    while bin.count % 4 != 0 { bin.append(0) }
    let total = 12 + 8 + json.count + (bin.isEmpty ? 0 : 8 + bin.count)
    guard total <= Int(UInt32.max) else { throw GLTFError("GLB larger than 4 GiB") }
    var head = Data(capacity: 20 + json.count)
    func u32(_ x: UInt32, _ out: inout Data) { withUnsafeBytes(of: x.littleEndian) { out.append(contentsOf: $0) } }
    u32(glbMagic, &head)
    u32(2, &head)
    u32(UInt32(total), &head)
    u32(UInt32(json.count), &head)
    u32(jsonChunkType, &head)
    head.append(json)
    guard !bin.isEmpty else { return [head] }
    var binHead = Data(capacity: 8)
    u32(UInt32(bin.count), &binHead)
    u32(binChunkType, &binHead)
    return [head, binHead, bin]
  }

  /// Writes `document` as a GLB file, its pieces one after the other (no copy of the whole file).
  public static func writeGLB(_ document: GLTFDocument, to url: URL) throws {
    try AtomicFile.write(chunks: try glbChunks(document), to: url)
  }

  /// Writes `document` as `url` (JSON) and, when it has binary data, `<name>.bin` beside it, referenced
  /// by a relative, percent-encoded URI. The `.bin` is written first so the `.gltf` never points at a
  /// missing file.
  public static func writeGLTF(_ document: GLTFDocument, to url: URL) throws {
    var doc = document.pruned()
    if doc.buffers?.isEmpty == false {
      let binURL = url.deletingPathExtension().appendingPathExtension("bin")
      let name = binURL.lastPathComponent
      var allowed = CharacterSet.urlPathAllowed
      allowed.remove(charactersIn: "/;?#")
      let uri = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
      try AtomicFile.write(doc.binary, to: binURL)
      doc.buffers![0].uri = uri
    }
    try AtomicFile.write(try jsonData(doc), to: url)
  }

  /// Writes GLB when `url` ends in `.glb`, otherwise `.gltf` + `.bin`.
  public static func write(_ document: GLTFDocument, to url: URL) throws {
    if url.pathExtension.lowercased() == "glb" {
      try writeGLB(document, to: url)
    } else {
      try writeGLTF(document, to: url)
    }
  }
}
