import Foundation
import MatchSceneCore

extension TracksCSV {
  /// Reads `tracks.csv` straight into a dense `MotionModel`, without a `TrackPoint` (and its strings) per
  /// row, keeping only tracks of `kinds` (other rows are skipped after their kind field): for form
  /// analysis of long matches, where the row view costs more than the analysis. Same checks and error
  /// messages as `read(from:)`; rows with a joint the skeleton lacks are skipped, as
  /// `MotionModel(points:fps:skeleton:)` does.
  /// The file is parsed in chunks of whole lines on all cores, `minimumChunkBytes` at least each; an error
  /// names the earliest bad line whichever chunk found it.
  /// - Throws: `InputError` naming the file and line.
  public static func readMotion(
    from url: URL, fps: Double, skeleton: Skeleton, kinds: Set<TrackKind> = Set(TrackKind.allCases),
    minimumChunkBytes: Int = 4 << 20
  ) throws -> MotionModel {
    guard let bytes = FileBytes.read(url.path) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    let file = url.path
    let csv = CSVScanner(bytes)
    // Whole lines in parallel, a few MB each at least; each chunk numbers its own tracks, merged below in
    // order of first appearance in the file.
    let chunks = csv.lineChunks(max(1, min(ProcessInfo.processInfo.activeProcessorCount, bytes.count / max(1, minimumChunkBytes))))
    // Each chunk numbers its lines from 1 (`forEachLine(in:)`); an error's line is made absolute by counting the lines before
    // its chunk (only then: counting costs a pass over the text).
    let results = try parallelMap(Array(chunks.enumerated())) { k, chunk in
      Result { try motionRows(csv, chunk, isFirst: k == 0, skeleton: skeleton, kinds: kinds, file: file) }
    }
    // The error of the earliest line, whichever chunk finished first.
    let parts = try results.enumerated().map { k, result in
      do {
        return try result.get()
      } catch var error as InputError {
        if case .line(let line) = error.location, k > 0 { error.location = .line(line + csv.lines(before: chunks[k].lowerBound)) }
        throw error
      }
    }
    let sawHeader = parts.first?.sawHeader ?? false
    if !sawHeader { throw InputError(file: file, location: .line(1), "empty file; expected the header '\(header)'") }
    let lo = parts.compactMap(\.lowestFrame).min(), hi = parts.compactMap(\.highestFrame).max()
    // A sparse match's rows (a minute of data over hours) go on a compact axis (`FrameAxis.forRows`).
    let span = lo.flatMap { l in hi.map { l...$0 } }
    let axis = span.map { FrameAxis.forRows(parts.flatMap(\.frames), span: $0, fps: fps) } ?? .identity
    var model = MotionModel(fps: fps, skeleton: skeleton, frames: span.map { $0.lowerBound...axis.compact($0.upperBound)! })
    model.axis = axis
    var trackOf: [String: Int] = [:]
    for part in parts {
      let global = part.trackIDs.map { id, kind in
        if let known = trackOf[id] { return known }
        trackOf[id] = model.tracks.count
        model.tracks.append(model.makeTrack(id: id, kind: kind))
        return model.tracks.count - 1
      }
      for r in part.rows { model.tracks[global[Int(r.track)]][joint: Int(r.joint), frame: axis.compact(r.frame)!] = r.sample }
    }
    model.sortTracks()
    return model
  }

  /// One parsed chunk of `tracks.csv`: its rows with chunk-local track numbers.
  struct MotionRows: Sendable {
    struct Row: Sendable { var track: Int32; var joint: Int32; var frame: Int; var sample: MotionSample }
    var trackIDs: [(id: String, kind: TrackKind)] = []
    var rows: [Row] = []
    /// The rows' frames with consecutive repeats left out (rows come frame by frame, so this is about a
    /// frame's worth per frame, not a row's): what `FrameAxis.forRows` needs, at a fraction of the rows.
    var frames: [Int] = []
    var sawHeader = false
    var lowestFrame: Int?
    var highestFrame: Int?
  }

  /// Parses the lines of `range` (the header among them when `isFirst`).
  static func motionRows(
    _ csv: CSVScanner, _ range: Range<Int>, isFirst: Bool, skeleton: Skeleton, kinds: Set<TrackKind>,
    file: String
  ) throws -> MotionRows {
    let bytes = csv.bytes
    var names = InternedNames()
    func name(_ range: Range<Int>) -> String { names.string(range, in: csv) }
    var jointIndex: [String: Int] = [:]
    for (i, n) in skeleton.keypoints.enumerated() where jointIndex[n] == nil { jointIndex[n] = i }
    let jointBytes = skeleton.keypoints.map { Array($0.utf8) }
    let kindBytes = TrackKind.allCases.map { (kind: $0, bytes: Array($0.rawValue.utf8), keep: kinds.contains($0)) }
    // Rows come in runs (a track's joints in skeleton order): compare with the previous row's names
    // before hashing.
    func equal(_ range: Range<Int>, _ expected: [UInt8]) -> Bool {
      guard range.count == expected.count else { return false }
      var k = 0
      for i in range {
        if bytes[i] != expected[k] { return false }
        k += 1
      }
      return true
    }
    var out = MotionRows()
    out.sawHeader = !isFirst
    var lastTrackBytes: [UInt8] = [], lastTrack = -1, lastJoint = -1
    var trackOf: [String: Int] = [:]
    var lo = Int.max, hi = Int.min
    out.rows.reserveCapacity(range.count / 70)
    try csv.forEachLine(in: range) { line, f in
      guard try checkLine(line, f, csv: csv, file: file, sawHeader: &out.sawHeader) else { return }
      func fail(_ column: String, _ range: Range<Int>, _ expected: String) -> InputError {
        failure(line, column, range, expected, csv: csv, file: file)
      }
      guard let k = kindBytes.first(where: { equal(f[3], $0.bytes) }) else { throw fail("kind", f[3], "player, person or ball") }
      guard k.keep else { return }
      let kind = k.kind
      guard let frame = csv.int(f[0]) else { throw fail("frame", f[0], "an integer") }
      guard !f[2].isEmpty else { throw fail("track", f[2], "a track name") }
      guard !f[4].isEmpty else { throw fail("joint", f[4], "a joint name") }
      let guess = lastJoint + 1 < jointBytes.count ? lastJoint + 1 : 0
      guard let joint = kind == .ball ? 0 : equal(f[4], jointBytes[guess]) ? guess : jointIndex[name(f[4])] else { return }
      lastJoint = joint
      let sample = try self.sample(line, f, csv: csv, file: file)
      let track: Int
      if lastTrack >= 0 && equal(f[2], lastTrackBytes) {
        track = lastTrack
      } else {
        let id = name(f[2])
        if let known = trackOf[id] {
          track = known
        } else {
          track = out.trackIDs.count
          trackOf[id] = track
          out.trackIDs.append((id, kind))
        }
        lastTrack = track
        lastTrackBytes = Array(bytes[f[2]])
      }
      lo = min(lo, frame)
      hi = max(hi, frame)
      if out.frames.last != frame { out.frames.append(frame) }
      out.rows.append(MotionRows.Row(track: Int32(track), joint: Int32(joint), frame: frame, sample: sample))
    }
    if lo <= hi {
      out.lowestFrame = lo
      out.highestFrame = hi
    }
    return out
  }
}
