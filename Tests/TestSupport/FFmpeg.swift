import Foundation
import XCTest

/// Debian's `ffmpeg` and `ffprobe` for tests: decoding images and videos to raw RGB, probing videos.
/// Needs `apt-get install -y ffmpeg`; a test skips without it, except under CI, where it fails.
public enum FFmpeg {
  /// The path of `name` (`ffmpeg`, `ffprobe`) on PATH. - Throws: `XCTSkip` when missing (a failure under CI).
  public static func executable(_ name: String = "ffmpeg") throws -> String {
    try programOnPath(name, hint: "apt-get install -y ffmpeg")
  }

  /// Runs `program` (`ffmpeg`, `ffprobe`) with `arguments`; returns its standard output.
  /// - Throws: when it exits non-zero, with its standard error.
  @discardableResult
  public static func run(_ program: String, _ arguments: [String]) throws -> Data {
    let result = try runProgram(URL(fileURLWithPath: try executable(program)), arguments)
    guard result.status == 0 else {
      throw NSError(
        domain: "FFmpeg", code: Int(result.status),
        userInfo: [NSLocalizedDescriptionKey: "\(program) \(arguments.joined(separator: " ")): \(result.stderr)"])
    }
    return result.data
  }

  /// An image (PNG, …) as 8-bit RGB rows, top row first.
  public struct Image {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]
    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> SIMD3<Int> {
      let i = 3 * (y * width + x)
      return SIMD3(Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
  }

  /// Decodes frame `index` (0 for an image) of `url` to RGB.
  public static func rgb(of url: URL, frame index: Int = 0) throws -> Image {
    let size = String(decoding: try run("ffprobe", [
      "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path,
    ]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    guard size.count == 2 else { throw NSError(domain: "FFmpeg", code: 1, userInfo: [NSLocalizedDescriptionKey: "no size for \(url.path)"]) }
    let data = try run("ffmpeg", [
      "-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
    ])
    guard data.count == size[0] * size[1] * 3 else {
      throw NSError(domain: "FFmpeg", code: 2, userInfo: [NSLocalizedDescriptionKey: "\(url.path): \(data.count) bytes for \(size)"])
    }
    return Image(width: size[0], height: size[1], rgb: [UInt8](data))
  }
}
