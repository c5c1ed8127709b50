import Foundation
import MatchSceneCore

/// Reads an image file as an 8-bit grey image. Netpbm's PGM (binary `P5` and plain `P2`, 8 or 16 bits;
/// Poskanzer, *pgm(5)*) is decoded here; every other format (PNG, JPEG, BMP, TIFF, PPM…) is decoded by
/// ffmpeg into a PGM in a private temporary folder, converted to grey with full-range BT.601 luma
/// (0.299 R + 0.587 G + 0.114 B, the weights OpenCV's grey conversion uses).
public enum GreyImageFile {
  /// The grey image in `url`.
  /// - Throws: `InputError` naming the file when it cannot be read, is not an image, or (for formats
  ///   other than PGM) ffmpeg is missing or cannot decode it.
  public static func read(_ url: URL) throws -> GreyImage {
    let ext = url.pathExtension.lowercased()
    if ext == "pgm" {
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw InputError(file: url.path, "cannot read the file")
      }
      return try decodePGM(data, file: url.path)
    }
    return try decodeWithFFmpeg(url)
  }

  /// Decodes a PGM image held in `data` (16-bit samples are scaled to 8 bits).
  /// - Throws: `InputError` naming `file` when the header or the samples are not a PGM's.
  public static func decodePGM(_ data: Data, file: String) throws -> GreyImage {
    let bytes = [UInt8](data)
    var position = 0
    func fail(_ what: String) -> InputError {
      InputError(file: file, "not a PGM image (\(what)); expected the header `P5` or `P2`, width, height and maximum value")
    }
    /// The next whitespace-separated header token, skipping `#` comments.
    func token() -> String? {
      while position < bytes.count {
        if bytes[position] == UInt8(ascii: "#") {
          while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
        } else if isSpace(bytes[position]) {
          position += 1
        } else {
          break
        }
      }
      let start = position
      while position < bytes.count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: "#") { position += 1 }
      return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }
    guard let magic = token(), magic == "P5" || magic == "P2" else { throw fail("no P5/P2 magic number") }
    guard let width = token().flatMap({ Int($0) }), let height = token().flatMap({ Int($0) }),
      let maxValue = token().flatMap({ Int($0) }), width > 0, height > 0, width <= 1 << 15, height <= 1 << 15,
      (1...65535).contains(maxValue)
    else { throw fail("a bad width, height or maximum value") }
    let count = width * height
    var pixels = [UInt8](repeating: 0, count: count)
    func scaled(_ v: Int) -> UInt8 { UInt8(min(255, (v * 255 + maxValue / 2) / maxValue)) }
    if magic == "P5" {
      position += 1  // the single whitespace after the maximum value
      let wide = maxValue > 255
      guard bytes.count - position >= count * (wide ? 2 : 1) else {
        throw InputError(file: file, "the PGM image is cut short: \(width)×\(height) pixels need \(count * (wide ? 2 : 1)) bytes of samples")
      }
      for i in 0..<count {
        let v = wide ? Int(bytes[position + 2 * i]) << 8 | Int(bytes[position + 2 * i + 1]) : Int(bytes[position + i])
        pixels[i] = maxValue == 255 ? UInt8(truncatingIfNeeded: v) : scaled(v)
      }
    } else {
      for i in 0..<count {
        guard let v = token().flatMap({ Int($0) }), v >= 0 else {
          throw InputError(file: file, "the plain PGM image has fewer than \(count) samples (sample \(i + 1) missing or not a number)")
        }
        pixels[i] = scaled(v)
      }
    }
    return GreyImage(width: width, height: height, pixels: pixels)!
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

  private static func decodeWithFFmpeg(_ url: URL) throws -> GreyImage {
    guard FileManager.default.isReadableFile(atPath: url.path) else { throw InputError(file: url.path, "cannot read the file") }
    let fm = FileManager.default
    let folder = fm.temporaryDirectory.appendingPathComponent("matchscene-image-\(UUID().uuidString)")
    try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: folder) }
    let pgm = folder.appendingPathComponent("image.pgm")
    let result = ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["ffmpeg", "-nostdin", "-loglevel", "error", "-i", url.path, "-frames:v", "1", "-pix_fmt", "gray", pgm.path])
    guard result.status == 0, let data = fm.contents(atPath: pgm.path) else {
      let why = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
      if result.status == 127 || why.contains("No such file or directory") && why.contains("ffmpeg") {
        throw InputError(file: url.path, "cannot decode the image: ffmpeg is not installed (install ffmpeg, or give the images as PGM)")
      }
      throw InputError(file: url.path, "not a readable image (ffmpeg: \(why.isEmpty ? "no frame decoded" : why)); expected PNG, JPEG, BMP, TIFF or PGM")
    }
    return try decodePGM(data, file: url.path)
  }
}
