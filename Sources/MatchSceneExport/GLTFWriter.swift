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
    let parts = try glbParts(document)
    var out = Data(capacity: parts.head.count + (parts.binHead?.count ?? 0) + parts.bin.count)
    out.append(parts.head)
    if let binHead = parts.binHead {
      out.append(binHead)
      parts.bin.forEachPiece { out.append(contentsOf: $0) }
    }
    return out
  }

  /// `glbData` in parts to be written one after the other: the header with the JSON chunk, then (nil
  /// when there is no binary data) the BIN chunk's header, and its data as the document's pieces,
  /// padded (not joined: a 10-minute match's scene holds 67 MB of it).
  static func glbParts(_ document: GLTFDocument) throws -> (head: Data, binHead: Data?, bin: GLTFBinary) {
    var doc = document.pruned()
    if let first = doc.buffers?.first {
      guard first.uri == nil else { throw GLTFError("the GLB buffer must not have a uri") }
      guard first.byteLength <= doc.binaryPieces.count, doc.binaryPieces.count - first.byteLength < 4 else {
        throw GLTFError("buffers[0].byteLength \(first.byteLength) disagrees with \(doc.binaryPieces.count) bytes of data")
      }
    } else {
      doc.binaryPieces = GLTFBinary()
    }
    var bin = doc.binaryPieces
    doc.binaryPieces = GLTFBinary()  // the JSON does not need it; `bin` is then the only holder
    var json = try jsonData(doc)
    while json.count % 4 != 0 { json.append(0x20) }
    bin.pad(toMultipleOf: 4)
    let total = 12 + 8 + json.count + (bin.count == 0 ? 0 : 8 + bin.count)
    guard total <= Int(UInt32.max) else { throw GLTFError("GLB larger than 4 GiB") }
    var head = Data(capacity: 20 + json.count)
    func u32(_ x: UInt32, _ out: inout Data) { withUnsafeBytes(of: x.littleEndian) { out.append(contentsOf: $0) } }
    u32(glbMagic, &head)
    u32(2, &head)
    u32(UInt32(total), &head)
    u32(UInt32(json.count), &head)
    u32(jsonChunkType, &head)
    head.append(json)
    guard bin.count > 0 else { return (head, nil, bin) }
    var binHead = Data(capacity: 8)
    u32(UInt32(bin.count), &binHead)
    u32(binChunkType, &binHead)
    return (head, binHead, bin)
  }

  /// Writes `document` as a GLB file, its pieces one after the other (the binary data is never joined
  /// into one block), through `AtomicFile`.
  public static func writeGLB(_ document: GLTFDocument, to url: URL) throws {
    let parts = try glbParts(document)
    try AtomicFile.write(to: url) { write in
      try parts.head.withUnsafeBytes { try write($0) }
      if let binHead = parts.binHead {
        try binHead.withUnsafeBytes { try write($0) }
        try parts.bin.forEachPiece(write)
      }
    }
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
      let bin = doc.binaryPieces
      try AtomicFile.write(to: binURL) { write in try bin.forEachPiece(write) }
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
