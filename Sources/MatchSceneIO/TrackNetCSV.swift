import Foundation
import MatchSceneCore

/// Ball detections in TrackNet's CSV (TrackNet / TrackNetV2 `predict` output), one file per camera,
/// `ball/<camera>.csv`:
///
/// ```
/// Frame,Visibility,X,Y
/// 0,1,812,433
/// 1,0,0,0
/// ```
///
/// `Visibility` 0 means the ball was not seen (X and Y are then ignored); X, Y are pixels. Several
/// rows with the same frame are several candidates (an extension for detectors that report more
/// than one). Header names are matched without regard to case or surrounding spaces and extra
/// columns are ignored, except an optional `Confidence` column, which is read (default 1).
public enum TrackNetCSV {
  /// What one file holds: the candidates per frame, and the frames its rows cover (seen or not).
  public struct File: Sendable, Equatable {
    /// Frame → candidates; frames with only `Visibility 0` rows are absent.
    public var balls: [Int: [BallDetection2D]]
    /// First to last frame of any row, or nil for a file with no rows.
    public var frames: ClosedRange<Int>?
  }

  /// Reads every `*.csv` in `ballFolder`: camera name (file name without `.csv`) → frame → candidates.
  /// - Throws: `InputError` when the folder cannot be listed or a file is malformed.
  public static func read(ballFolder: URL) throws -> [String: [Int: [BallDetection2D]]] {
    try readFiles(ballFolder: ballFolder).mapValues(\.balls)
  }

  /// Like `read(ballFolder:)`, keeping each file's frame coverage.
  public static func readFiles(ballFolder: URL) throws -> [String: File] {
    var out: [String: File] = [:]
    for (camera, url) in try cameraFiles(in: ballFolder) { out[camera] = try readFile(url) }
    return out
  }

  /// The `*.csv` files of a ball folder by camera name (file name without `.csv`), sorted by name.
  public static func cameraFiles(in ballFolder: URL) throws -> [(camera: String, file: URL)] {
    try FolderListing.entries(of: ballFolder, what: "the ball folder").filter { $0.lowercased().hasSuffix(".csv") }.map {
      (String($0.dropLast(4)), ballFolder.appendingPathComponent($0))
    }
  }

  /// Reads one camera's file: frame → candidates (frames with only `Visibility 0` rows are absent).
  public static func read(file url: URL) throws -> [Int: [BallDetection2D]] { try readFile(url).balls }

  /// Reads one camera's file with its frame coverage.
  public static func readFile(_ url: URL) throws -> File {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parseFile([UInt8](data), file: url.path)
  }

  /// Parses CSV text (`file` names it in errors): frame → candidates.
  public static func parse(_ text: String, file: String) throws -> [Int: [BallDetection2D]] {
    try parseFile(Array(text.utf8), file: file).balls
  }

  /// Parses CSV bytes, strict on rows: each needs an integer frame, a numeric visibility and, when
  /// visible, finite X and Y.
  /// - Throws: `InputError` with the 1-based line of the first malformed row.
  static func parseFile(_ bytes: [UInt8], file: String) throws -> File {
    let csv = CSVScanner(bytes)
    var columns: (frame: Int, visibility: Int, x: Int, y: Int, confidence: Int?)?
    var balls: [Int: [BallDetection2D]] = [:]
    var lo = Int.max, hi = Int.min
    try csv.forEachLine { line, f in
      guard let c = columns else {
        let names = f.map { csv.unquoted($0).lowercased() }
        guard let iFrame = names.firstIndex(of: "frame"), let iVisibility = names.firstIndex(of: "visibility"),
          let iX = names.firstIndex(of: "x"), let iY = names.firstIndex(of: "y")
        else {
          throw InputError(
            file: file, location: .line(line),
            "header '\(names.joined(separator: ","))' lacks a column: expected Frame,Visibility,X,Y")
        }
        columns = (iFrame, iVisibility, iX, iY, names.firstIndex(of: "confidence"))
        return
      }
      if CSVScanner.isBlank(f) { return }
      let needed = max(c.frame, c.visibility, c.x, c.y) + 1
      guard f.count >= needed else {
        throw InputError(file: file, location: .line(line), "has \(f.count) fields; expected at least \(needed) (Frame,Visibility,X,Y)")
      }
      guard let frame = csv.int(f[c.frame]) else {
        throw InputError(file: file, location: .line(line), "Frame '\(csv.string(f[c.frame]))' is not an integer; expected a frame number")
      }
      try FrameNumber.check(frame, file: file, location: .line(line), what: "Frame")
      guard let visibility = csv.double(f[c.visibility]), visibility.isFinite else {
        throw InputError(
          file: file, location: .line(line), "Visibility '\(csv.string(f[c.visibility]))' is not a number; expected 0 or 1")
      }
      lo = min(lo, frame)
      hi = max(hi, frame)
      if visibility == 0 { return }
      guard let x = csv.double(f[c.x]), let y = csv.double(f[c.y]), x.isFinite, y.isFinite else {
        throw InputError(
          file: file, location: .line(line),
          "X, Y '\(csv.string(f[c.x]))', '\(csv.string(f[c.y]))' are not finite numbers; expected pixel coordinates")
      }
      guard CameraRanges.isPixel(x), CameraRanges.isPixel(y) else {
        throw InputError(file: file, location: .line(line), "X, Y = \(x), \(y) lie outside the accepted \(CameraRanges.pixelRange)")
      }
      var confidence = 1.0
      if let i = c.confidence, i < f.count, !f[i].isEmpty {
        guard let value = csv.double(f[i]), value.isFinite else {
          throw InputError(file: file, location: .line(line), "Confidence '\(csv.string(f[i]))' is not a finite number")
        }
        confidence = value
      }
      balls[frame, default: []].append(BallDetection2D(x: x, y: y, confidence: confidence))
    }
    if columns == nil {
      throw InputError(file: file, location: .line(1), "empty file; expected the header Frame,Visibility,X,Y")
    }
    return File(balls: balls, frames: lo <= hi ? lo...hi : nil)
  }

  /// One camera's detections as CSV text: a row per frame of `frames` (`Visibility` 0 and X = Y = 0
  /// where there is no detection), several rows for several candidates, coordinates with up to 6
  /// decimals (trailing zeros dropped). A `Confidence` column is added only when some candidate's
  /// confidence is not 1, so plain detections give the plain TrackNet layout. Candidates outside
  /// `frames` are not written.
  public static func render(_ balls: [Int: [BallDetection2D]], frames: ClosedRange<Int>) -> String {
    let withConfidence = balls.contains { frames.contains($0.key) && $0.value.contains { $0.confidence != 1 } }
    var out = TextBuffer(capacity: 32 * frames.count)
    out.append(withConfidence ? "Frame,Visibility,X,Y,Confidence\n" : "Frame,Visibility,X,Y\n")
    for frame in frames {
      let candidates = balls[frame] ?? []
      if candidates.isEmpty {
        out.append(frame)
        out.append(withConfidence ? ",0,0,0,0\n" : ",0,0,0\n")
      }
      for b in candidates {
        out.append(frame)
        out.append(",1,")
        out.appendFixed(b.x, decimals: 6, trimZeros: true)
        out.append(byte: UInt8(ascii: ","))
        out.appendFixed(b.y, decimals: 6, trimZeros: true)
        if withConfidence {
          out.append(byte: UInt8(ascii: ","))
          out.appendFixed(b.confidence, decimals: 6, trimZeros: true)
        }
        out.append(byte: UInt8(ascii: "\n"))
      }
    }
    return out.string
  }

  /// Writes one camera's file atomically (see `render(_:frames:)`).
  public static func write(_ balls: [Int: [BallDetection2D]], frames: ClosedRange<Int>, to url: URL) throws {
    try AtomicFile.write(render(balls, frames: frames), to: url)
  }
}
