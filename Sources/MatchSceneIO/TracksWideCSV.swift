import Foundation
import MatchSceneCore

/// How `tracks.csv`'s rows are laid out: `long` (one row per point, the default and what MatchScene's
/// readers take) or `wide` (also `tracks_wide.csv`, one row per frame, the spreadsheet layout of
/// FreeMoCap and Anipose).
public enum TracksLayout: String, Sendable, CaseIterable {
  case long, wide
}

/// The wide tracks file, `tracks_wide.csv`: one row per frame of the reconstruction's range, the header
/// `frame,time` then six columns per track and joint, `<track>_<joint>_x`, `_y`, `_z`, `_error`,
/// `_views`, `_reproj_px` (the ball: `ball_x` … `ball_reproj_px`). `_reproj_px` repeats `_error` under
/// `tracks.csv`'s name for the quantity (`reproj_px`), so that one name means it in both layouts; `_error`
/// stays for the readers that use it. Tracks come as in `tracks.csv` (people by id, then the
/// ball), joints in skeleton order; only joints the reconstruction holds get columns. Each column name is
/// a `CSVField` cell (quoted when a name holds a comma, a quote or a line end; a `'` in front when it
/// begins with a formula character).
///
/// Values are those of `tracks.csv`: metres with 6 decimals, `error` and `reproj_px` the mean reprojection
/// error in pixels with 3 decimals, `views` the cameras used. A joint with no point at a frame has its six
/// cells empty; a filled point (interpolated, not measured) has x, y, z and empty `error`, `views` and
/// `reproj_px`.
public enum TracksWideCSV {
  /// The file name written beside `tracks.csv`.
  public static let fileName = "tracks_wide.csv"

  /// One column group: a track's joint.
  struct Column: Hashable {
    var track: String
    var joint: String
    var name: String { track == joint ? track : "\(track)_\(joint)" }
  }

  /// The text. Rows cover every frame from the first to the last point; `fps` gives `time` (frame / fps).
  ///
  /// With `frames` (a sparse match's real frames, `FrameAxis`), rows cover those frames instead, so that
  /// the empty stretches between them take no rows.
  public static func render(_ points: [TrackPoint], skeleton: Skeleton, fps: Double, frames: [Int]? = nil) -> String {
    var kinds: [String: TrackKind] = [:]
    var cells: [Int: [Column: TrackPoint]] = [:]
    for p in points {
      kinds[p.track] = p.kind
      cells[p.frame, default: [:]][Column(track: p.track, joint: p.joint)] = p
    }
    let jointOrder = Dictionary(skeleton.keypoints.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    let columns = Set(cells.values.flatMap(\.keys)).sorted { a, b in
      if a.track != b.track {
        let ballA = kinds[a.track] == .ball, ballB = kinds[b.track] == .ball
        return ballA != ballB ? ballB : a.track < b.track
      }
      let i = jointOrder[a.joint] ?? Int.max, j = jointOrder[b.joint] ?? Int.max
      return i != j ? i < j : a.joint < b.joint
    }
    var out = TextBuffer(capacity: 64 + cells.count * columns.count * 40)
    out.append("frame,time")
    for c in columns {
      for suffix in ["x", "y", "z", "error", "views", "reproj_px"] {
        out.append(byte: UInt8(ascii: ","))
        CSVField.append("\(c.name)_\(suffix)", to: &out)
      }
    }
    out.append(byte: UInt8(ascii: "\n"))
    guard let lo = cells.keys.min(), let hi = cells.keys.max() else { return out.string }
    let comma = UInt8(ascii: ",")
    for frame in frames.map({ AnySequence($0) }) ?? AnySequence(lo...hi) {
      out.append(frame)
      out.append(byte: comma)
      out.appendFixed(Double(frame) / fps, decimals: 6)
      let row = cells[frame] ?? [:]
      for c in columns {
        guard let p = row[c] else {
          out.append(",,,,,,")
          continue
        }
        for axis in 0..<3 {
          out.append(byte: comma)
          out.appendFixed(p.position[axis], decimals: 6)
        }
        out.append(byte: comma)
        if p.reprojectionPx >= 0 {
          out.appendFixed(p.reprojectionPx, decimals: 3)
          out.append(byte: comma)
          out.append(p.views)
          out.append(byte: comma)
          out.appendFixed(p.reprojectionPx, decimals: 3)
        } else {
          out.append(",,")
        }
      }
      out.append(byte: UInt8(ascii: "\n"))
    }
    return out.string
  }

  /// Writes the file atomically (see `render`).
  public static func write(_ points: [TrackPoint], skeleton: Skeleton, fps: Double, frames: [Int]? = nil, to url: URL) throws {
    try AtomicFile.write(render(points, skeleton: skeleton, fps: fps, frames: frames), to: url)
  }
}
