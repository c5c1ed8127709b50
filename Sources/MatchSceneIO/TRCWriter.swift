import Foundation
import MatchSceneCore

/// Marker trajectories in the TRC format OpenSim reads, laid out as Pose2Sim writes them: a 5-line
/// header (`PathFileType`, the `DataRate…` names and values, marker names each followed by two empty
/// cells, `X1 Y1 Z1 …`), a blank line, then one tab-separated row per frame (`Frame#`, `Time`, then x,
/// y, z per marker; empty cells where a marker is missing). Units are metres.
///
/// Every table line (marker names, `X1 Y1 Z1 …`, each row) ends with a tab, so a row always holds its
/// 2 + 3 × markers cells even when its last marker is missing: OpenSim's tokenizer (`FileAdapter::tokenize`,
/// OpenSim 4.x) drops a line's trailing empty cell and then refuses the row ("Expected 53, Received 52");
/// with the closing tab only the closing empty cell is dropped. Table readers (pandas) see one more,
/// empty, column on every line.
///
/// OpenSim's world is y up with x forward; with `yUp` (the default) a z-up calibration world is written
/// as (x, y, z) → (x, z, −y) (`openSimFromWorld`): the venue's long axis (world x) stays OpenSim's X, so
/// players who face along it face ±X and OpenSim's pelvis tilt and list keep their meaning (a rotation
/// about −90° about x, right-handed).
public enum TRCWriter {
  /// A z-up world point in OpenSim's y-up frame: (x, y, z) → (x, z, −y).
  @inline(__always) public static func openSimFromWorld(_ p: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(p.x, p.z, -p.y)
  }

  /// TRC text of one track.
  /// - Parameters:
  ///   - points: the track's points (any order; other tracks' points are ignored).
  ///   - frames: the frames to write (default: the track's first to last frame).
  public static func render(
    track: String, points: [TrackPoint], skeleton: Skeleton, fps: Double, fileName: String,
    frames: ClosedRange<Int>? = nil, yUp: Bool = true
  ) -> String {
    let mine = points.filter { $0.track == track }
    guard let range = frames ?? (mine.map(\.frame).min().flatMap { lo in mine.map(\.frame).max().map { lo...$0 } }) else {
      return ""
    }
    var byFrame: [Int: [String: SIMD3<Double>]] = [:]
    for p in mine { byFrame[p.frame, default: [:]][p.joint] = p.position }
    let markers = skeleton.keypoints
    return text(markers: markers, frames: range, fps: fps, fileName: fileName, yUp: yUp) { frame, m in
      byFrame[frame]?[markers[m]]
    }
  }

  /// The TRC text: header, then a row per frame of `frames` with `position(frame, marker)` (nil: empty
  /// cells), world z-up turned y-up when `yUp`.
  static func text(
    markers: [String], frames range: ClosedRange<Int>, fps: Double, fileName: String, yUp: Bool,
    position: (Int, Int) -> SIMD3<Double>?
  ) -> String {
    var whole = TextBuffer()
    render(markers: markers, frames: range, fps: fps, fileName: fileName, yUp: yUp, pieceBytes: nil, position: position) {
      swap(&whole, &$0)
    }
    return whole.string
  }

  /// The bytes of `text(markers:frames:fps:fileName:yUp:position:)` handed to `emit` in pieces of about
  /// `pieceBytes` (nil: one piece), each piece whole rows; `emit` may empty the buffer it is given. A
  /// 10-minute match's file (18 MB a player) is then never held whole while it is written.
  static func render(
    markers: [String], frames range: ClosedRange<Int>, fps: Double, fileName: String, yUp: Bool, pieceBytes: Int?,
    axis: FrameAxis = .identity, position: (Int, Int) -> SIMD3<Double>?, _ emit: (inout TextBuffer) throws -> Void
  ) rethrows {
    var out = TextBuffer(capacity: pieceBytes.map { $0 + 64 * (markers.count + 1) } ?? 0)
    out.append("PathFileType\t4\t(X/Y/Z)\t\(cell(fileName))\n")
    out.append("DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n")
    out.append("\(fps)\t\(fps)\t\(range.count)\t\(markers.count)\tm\t\(fps)\t\(axis.real(range.lowerBound))\t\(range.count)\n")
    out.append("Frame#\tTime\t" + safeMarkerNames(markers).joined(separator: "\t\t\t") + "\t\t\t\n")
    out.append("\t\t" + (1...max(1, markers.count)).map { "X\($0)\tY\($0)\tZ\($0)" }.joined(separator: "\t") + "\t\n")
    out.append("\n")
    let tab = UInt8(ascii: "\t")
    for frame in range {
      if let pieceBytes, out.bytes.count >= pieceBytes {
        try emit(&out)
        out.removeAll()
      }
      // A sparse match (`FrameAxis`): rows carry real frames and times, skipping the empty stretches.
      let real = axis.real(frame)
      out.append(real)
      out.append(byte: tab)
      out.appendFixed(Double(real) / fps, decimals: 6)
      for m in markers.indices {
        if let p = position(frame, m) {
          let q = yUp ? openSimFromWorld(p) : p
          out.append(byte: tab)
          out.appendFixed(q.x, decimals: 6)
          out.append(byte: tab)
          out.appendFixed(q.y, decimals: 6)
          out.append(byte: tab)
          out.appendFixed(q.z, decimals: 6)
        } else {
          out.append("\t\t\t")
        }
      }
      out.append(byte: tab)
      out.append(byte: UInt8(ascii: "\n"))
    }
    try emit(&out)
  }

  /// Text safe for one cell of a TRC header: the format is tab-separated, one header row a line, so a
  /// tab, a line end or any other control character (U+0000–U+001F, U+007F) becomes `_`.
  static func cell(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
  }

  /// The marker names as written: each a `cell` (an empty name becomes `_`), and a name that then equals
  /// an earlier one gets `_2`, `_3`… so that OpenSim, which finds markers by name, sees each once. Names
  /// that are already safe and distinct are written as they are.
  static func safeMarkerNames(_ markers: [String]) -> [String] {
    var seen = Set<String>()
    return markers.map { name in
      let base = name.isEmpty ? "_" : cell(name)
      var candidate = base, k = 1
      while !seen.insert(candidate).inserted {
        k += 1
        candidate = "\(base)_\(k)"
      }
      return candidate
    }
  }

  /// Size of the pieces `writeAll` renders and writes one after another.
  static let writePieceBytes = 4 << 20

  /// Reads the marker positions back (for round-trip checks): frame → marker → position as written.
  public static func parse(_ text: String, file: String) throws -> (markers: [String], frames: [Int: [String: SIMD3<Double>]]) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 6, lines[0].hasPrefix("PathFileType") else {
      throw InputError(file: file, location: .line(1), "not a TRC file (expected a PathFileType header)")
    }
    let markers = lines[3].split(separator: "\t", omittingEmptySubsequences: false).dropFirst(2).map(String.init).filter { !$0.isEmpty }
    var frames: [Int: [String: SIMD3<Double>]] = [:]
    for (n, line) in lines.enumerated().dropFirst(6) where !line.isEmpty {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard let frame = Int(cells[0]), cells.count >= 2 + 3 * markers.count else {
        throw InputError(file: file, location: .line(n + 1), "expected Frame#, Time and 3 cells per marker")
      }
      for (m, marker) in markers.enumerated() {
        if let x = Double(cells[2 + 3 * m]), let y = Double(cells[3 + 3 * m]), let z = Double(cells[4 + 3 * m]) {
          frames[frame, default: [:]][marker] = SIMD3(x, y, z)
        }
      }
    }
    return (markers, frames)
  }
}
