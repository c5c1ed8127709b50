import Foundation
import MatchSceneCore

/// The 3D tracks file, `tracks.csv`: the header `frame,time,track,kind,joint,x,y,z,reproj_px,views`,
/// then one row per estimated point. `time` in seconds and `x,y,z` in metres (world frame of the
/// calibration) with 6 decimals (1 µs, 1 µm), `reproj_px` (mean reprojection error, pixels) with 3
/// decimals, `views` (cameras used) an integer; `kind` is `player` or `ball`.
///
/// A row the analysis filled rather than measured (a gap filled by interpolation, a ball position on a
/// fitted flight at a frame no camera saw; `reprojectionPx < 0` in `TrackPoint`) has `reproj_px` and
/// `views` empty, so a naive mean of the column counts measurements only. Files from before this
/// change, with `-1` and `0` there, still read, as filled rows.
///
/// Track and joint names are cells of `CSVField`: quoted per RFC 4180 when they hold a comma, a quote or
/// a line end, and a name beginning with `= + - @` (a spreadsheet formula) written with a `'` in front;
/// the readers here undo both, so any name reads back as it was.
public enum TracksCSV {
  public static let header = "frame,time,track,kind,joint,x,y,z,reproj_px,views"

  /// The file's text, rows in the order of `points`. About a second per million rows (release build).
  public static func render(_ points: [TrackPoint]) -> String { renderBytes(points).string }

  static func renderBytes(_ points: [TrackPoint]) -> TextBuffer {
    var out = TextBuffer(capacity: 64 + points.count * 80)
    appendHeader(to: &out)
    for p in points { appendRow(p, to: &out) }
    return out
  }

  /// `renderBytes` of `motion.rows`, the rows rendered as they are made: without the array of rows
  /// (1.6 million `TrackPoint`s, 180 MB, on a 10-minute match).
  static func renderBytes(_ motion: MotionModel) -> TextBuffer {
    // Rows are 70–90 bytes: room for all of them, so that the buffer is not copied as it grows.
    let rows = motion.tracks.reduce(0) { n, track in n + track.samples.reduce(0) { $0 + ($1.isPresent ? 1 : 0) } }
    var out = TextBuffer(capacity: 64 + rows * 96)
    appendHeader(to: &out)
    motion.forEachRow { appendRow($0, to: &out) }
    return out
  }

  static func appendHeader(to out: inout TextBuffer) {
    out.append(header)
    out.append(byte: UInt8(ascii: "\n"))
  }

  /// One row, its line end included.
  static func appendRow(_ p: TrackPoint, to out: inout TextBuffer) {
    let comma = UInt8(ascii: ",")
    out.append(p.frame)
    out.append(byte: comma)
    out.appendFixed(p.time, decimals: 6)
    out.append(byte: comma)
    CSVField.append(p.track, to: &out)
    out.append(byte: comma)
    out.append(p.kind.rawValue)
    out.append(byte: comma)
    CSVField.append(p.joint, to: &out)
    out.append(byte: comma)
    out.appendFixed(p.position.x, decimals: 6)
    out.append(byte: comma)
    out.appendFixed(p.position.y, decimals: 6)
    out.append(byte: comma)
    out.appendFixed(p.position.z, decimals: 6)
    out.append(byte: comma)
    if p.reprojectionPx < 0 {
      out.append(byte: comma)  // filled: reproj_px and views empty
    } else {
      out.appendFixed(p.reprojectionPx, decimals: 3)
      out.append(byte: comma)
      out.append(p.views)
    }
    out.append(byte: UInt8(ascii: "\n"))
  }

  /// Writes `motion.rows` atomically, rendered without the array of rows (see `render(_:)`) and written
  /// in pieces of about `pieceBytes` as they are rendered (the same bytes as `renderBytes(motion)`, without
  /// holding a 10-minute match's 120 MB of text). `trackOrder` orders the tracks within a frame
  /// (`MotionModel.forEachRow(trackOrder:_:)`; default people by id, then the ball).
  public static func write(_ motion: MotionModel, to url: URL, trackOrder: [Int]? = nil, pieceBytes: Int = 1 << 22) throws {
    try AtomicFile.write(to: url) { emit in
      var out = TextBuffer(capacity: pieceBytes + 256)
      appendHeader(to: &out)
      try motion.forEachRow(trackOrder: trackOrder) { row in
        appendRow(row, to: &out)
        if out.bytes.count >= pieceBytes {
          try out.bytes.withUnsafeBytes { try emit($0) }
          out.removeAll()
        }
      }
      try out.bytes.withUnsafeBytes { try emit($0) }
    }
  }

  /// Writes the file atomically (see `render(_:)`).
  public static func write(_ points: [TrackPoint], to url: URL) throws {
    try AtomicFile.write(bytes: renderBytes(points).bytes, to: url)
  }

  /// Reads a tracks file.
  /// - Throws: `InputError` naming the file and the 1-based line of a wrong header or malformed row.
  public static func read(from url: URL) throws -> [TrackPoint] {
    guard let bytes = FileBytes.read(url.path) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(bytes, file: url.path)
  }

  /// Parses tracks text; `file` names it in errors. Blank lines are skipped.
  public static func parse(_ text: String, file: String) throws -> [TrackPoint] {
    try parse(Array(text.utf8), file: file)
  }

  static func parse(_ bytes: [UInt8], file: String) throws -> [TrackPoint] {
    let csv = CSVScanner(bytes)
    var points: [TrackPoint] = []
    points.reserveCapacity(bytes.count / 70)
    var sawHeader = false
    // Tracks and joints repeat on every row: reuse their strings instead of decoding each anew.
    var names = InternedNames()
    func name(_ range: Range<Int>) -> String { names.string(range, in: csv) }
    try csv.forEachLine { line, f in
      guard try checkLine(line, f, csv: csv, file: file, sawHeader: &sawHeader) else { return }
      func fail(_ column: String, _ range: Range<Int>, _ expected: String) -> InputError {
        failure(line, column, range, expected, csv: csv, file: file)
      }
      guard let frame = csv.int(f[0]) else { throw fail("frame", f[0], "an integer") }
      guard let time = csv.double(f[1]), time.isFinite else { throw fail("time", f[1], "a finite number") }
      guard !f[2].isEmpty else { throw fail("track", f[2], "a track name") }
      guard let kind = TrackKind(rawValue: name(f[3])) else { throw fail("kind", f[3], "player, person or ball") }
      guard !f[4].isEmpty else { throw fail("joint", f[4], "a joint name") }
      let sample = try self.sample(line, f, csv: csv, file: file)
      points.append(
        TrackPoint(
          frame: frame, time: time, track: name(f[2]), kind: kind, joint: name(f[4]), position: sample.position,
          reprojectionPx: sample.reprojectionPx, views: Int(sample.views)))
    }
    if !sawHeader { throw InputError(file: file, location: .line(1), "empty file; expected the header '\(header)'") }
    return points
  }
}

extension TracksCSV {
  /// Checks the header (the first line, setting `sawHeader`) or a data line's field count; false for the
  /// header and blank lines, which hold no row.
  static func checkLine(_ line: Int, _ f: [Range<Int>], csv: CSVScanner, file: String, sawHeader: inout Bool) throws
    -> Bool
  {
    if !sawHeader {
      let text = csv.string(0..<(f.last?.upperBound ?? 0))
      guard f.count == 10, text.replacingOccurrences(of: " ", with: "") == header else {
        throw InputError(file: file, location: .line(line), "header '\(text)' is not '\(header)'")
      }
      sawHeader = true
      return false
    }
    if CSVScanner.isBlank(f) { return false }
    guard f.count == 10 else {
      throw InputError(file: file, location: .line(line), "has \(f.count) fields; expected 10 (\(header))")
    }
    return true
  }

  static func failure(_ line: Int, _ column: String, _ range: Range<Int>, _ expected: String, csv: CSVScanner, file: String)
    -> InputError
  {
    InputError(file: file, location: .line(line), "\(column) '\(csv.string(range))' is not \(expected)")
  }

  /// x, y, z, reproj_px and views of a data line, checked; measured unless reproj_px is empty or negative
  /// (filled: reprojection error -1; empty views read as 0).
  static func sample(_ line: Int, _ f: [Range<Int>], csv: CSVScanner, file: String) throws -> MotionSample {
    func fail(_ column: String, _ range: Range<Int>, _ expected: String) -> InputError {
      failure(line, column, range, expected, csv: csv, file: file)
    }
    guard let x = csv.double(f[5]), x.isFinite else { throw fail("x", f[5], "a finite number") }
    guard let y = csv.double(f[6]), y.isFinite else { throw fail("y", f[6], "a finite number") }
    guard let z = csv.double(f[7]), z.isFinite else { throw fail("z", f[7], "a finite number") }
    guard let reprojection = f[8].isEmpty ? -1 : csv.double(f[8]), !reprojection.isNaN else {
      throw fail("reproj_px", f[8], "a number or empty (filled)")
    }
    guard let views = f[9].isEmpty ? 0 : csv.int(f[9]), views >= 0 else {
      throw fail("views", f[9], "a non-negative integer or empty (filled)")
    }
    return MotionSample(
      position: SIMD3(x, y, z), reprojectionPx: reprojection, views: views, state: reprojection < 0 ? .filled : .measured)
  }
}

/// Names that repeat on every row of a large file (tracks, joints), decoded once per distinct spelling.
struct InternedNames {
  private var names: [ArraySlice<UInt8>: String] = [:]
  mutating func string(_ range: Range<Int>, in csv: CSVScanner) -> String {
    if let s = names[csv.bytes[range]] { return s }
    let s = csv.name(range)
    names[csv.bytes[range]] = s
    return s
  }
}
