import Foundation
import MatchSceneCore

/// A match's marker trajectories as a C3D file, the biomechanics exchange format (C3D.ORG, "The C3D File
/// Format User Guide", Motion Lab Systems 2008): a 512-byte header, the parameter section, then per frame
/// per marker x, y, z as IEEE little-endian Float32 (processor type 84, Intel) and a fourth Float32 holding the
/// residual word, -1 for no data.
///
/// The residual word (C3D.ORG, "3D Data - Floating-point Format"): the float is converted to a signed 16-bit
/// integer read as two bytes, the first (in the file's byte order: for Intel the low byte) the camera mask,
/// the second (for Intel the high byte) the residual in units of |POINT:SCALE|; so here the float holds
/// `residual × 256 + mask`, the residual at most 127 so that the word stays positive (negative: invalid).
/// This is how C3D.ORG's Intel sample files (Sample01 `Eb015pi.c3d`/`Eb015pr.c3d`) and ezc3d (the reader
/// OpenSim and pyomeca use, 1.7.2) store and read it. The PyPI package `c3d` (0.6.0) reads the two bytes the
/// other way round (the residual from the low byte): through it the residual reads as the mask and the mask
/// as the residual.
///
/// What is written:
/// - one marker per keypoint (or Pose2Sim marker, see `MarkerNames`) of every person, labelled
///   `<track>:<marker>` with the track as the subject prefix (`SUBJECTS` group, as Vicon writes several
///   subjects), or the marker alone with `C3DLayout.plainNames` (a file per player), and `ball` when the
///   match has a ball; names that are not short ASCII are rewritten and clashes numbered (`C3DLabels`), the
///   names as given kept in `DESCRIPTIONS`;
/// - positions in metres in the calibration's world frame, the same numbers as `tracks.csv`
///   (`POINT:UNITS` = `m`), or with `C3DLayout.yUp` in OpenSim's y-up frame as the TRC files
///   (`TRCWriter.openSimFromWorld`; `MATCHSCENE:FRAME` says which);
/// - `POINT:RATE` the capture rate; C3D frame 1 is match frame `MATCHSCENE:FIRST_FRAME`;
///   counts beyond 65535 frames go in `TRIAL:ACTUAL_END_FIELD` and `POINT:LONG_FRAMES`;
/// - residuals: a measured sample's reprojection error turned into metres at its distance from the cameras
///   (pixels × mean depth / focal length over the cameras in front of it), 1 mm steps, at least 1 mm; a
///   filled sample has residual 0 ("modelled" in the C3D convention); a missing one is invalid (-1).
///   The residual is rounded to whole |POINT:SCALE| (1 mm) and kept within 1…127 mm: a reader gets
///   `C3DWriter.residualMetres(...)`. The camera mask is 0: which cameras saw a point is not kept here
///   (`views.csv` lists them).
public struct C3DLayout: Sendable, Equatable {
  /// Labels without the `<track>:` subject prefix (`SUBJECTS:USES_PREFIXES` 0); clashes between people
  /// are numbered (`C3DLabels.unique`), so use it for a file holding one person.
  public var plainNames = false
  /// Positions in OpenSim's frame (x, z, −y of a z-up world) rather than the world's.
  public var yUp = false
  public init(plainNames: Bool = false, yUp: Bool = false) {
    self.plainNames = plainNames
    self.yUp = yUp
  }
}

public enum C3DWriter {
  /// |POINT:SCALE|: the residual's unit, metres.
  public static let residualUnit = 0.001
  /// The largest residual written, in `residualUnit`s: the residual byte is the word's high byte, whose top
  /// bit is the word's sign (negative: invalid point).
  public static let maxResidualUnits = 127

  /// The residual stored for a measured sample `metres` off (pixels × metres per pixel): whole units of
  /// `residualUnit`, at least 1 (0 means "modelled"), at most `maxResidualUnits`.
  public static func residualUnits(metres: Double) -> Int {
    Int(min(Double(maxResidualUnits), max(1, (max(0, metres) / residualUnit).rounded())))
  }

  /// The fourth float of a point: the residual word `residual × 256 + cameraMask` (see the type's notes).
  static func residualWord(units: Int, cameraMask: Int = 0) -> Float {
    Float(units * 256 + (cameraMask & 0x7f))
  }

  /// The points of the file in order: their labels (`C3DLabels`), descriptions, (track, marker) columns
  /// and the subjects (people) with their label prefixes.
  static func points(_ motion: MotionModel, set: MarkerSet, playerNames: [String: String], plainNames: Bool = false) -> (
    labels: [String], descriptions: [String], columns: [(track: Int, marker: Int)], subjects: [(id: String, prefix: String)]
  ) {
    // Labels are ASCII, short and unique (`C3DLabels`); the names as given go in the descriptions.
    let trackLabels = C3DLabels.unique(
      motion.tracks.map { C3DLabels.part($0.id, limit: $0.kind == .ball ? C3DLabels.maxLength : C3DLabels.maxPrefixLength) })
    var labels: [String] = [], descriptions: [String] = []
    var columns: [(track: Int, marker: Int)] = []
    var subjects: [(id: String, prefix: String)] = []
    for (t, track) in motion.tracks.enumerated() {
      if track.kind == .ball {
        labels.append(trackLabels[t])
        descriptions.append("ball")
        columns.append((t, 0))
      } else {
        let prefix = plainNames ? "" : trackLabels[t] + ":"
        subjects.append((track.id, prefix))
        for m in 0..<set.count {
          labels.append(prefix + C3DLabels.part(set.names[m], limit: C3DLabels.maxLength - prefix.count))
          descriptions.append(C3DLabels.text(playerNames[track.id].map { "\($0) \(set.names[m])" } ?? set.names[m]))
          columns.append((t, m))
        }
      }
    }
    labels = C3DLabels.unique(labels)
    return (labels, descriptions, columns, subjects)
  }

  /// The file's bytes (`write(_:naming:cameras:playerNames:to:)` writes the same bytes in pieces).
  /// - Parameters:
  ///   - motion: the match, world frame.
  ///   - cameras: for the residuals' pixel-to-metre scale; empty writes residual 1 mm for measured samples.
  ///   - playerNames: descriptions for the subjects (`match.toml`'s `[players]`).
  /// - Throws: `InputError` when the model is empty or the rate is not positive and finite.
  public static func render(
    _ motion: MotionModel, naming: MarkerNames = .keypoints, cameras: [Camera] = [],
    playerNames: [String: String] = [:], layout: C3DLayout = C3DLayout(), file: String = "match.c3d"
  ) throws -> [UInt8] {
    var whole: [UInt8] = []
    try render(motion, naming: naming, cameras: cameras, playerNames: playerNames, layout: layout, file: file, pieceBytes: nil) {
      swap(&whole, &$0)
    }
    return whole
  }

  /// The file's bytes handed to `emit` in pieces of about `pieceBytes` (nil: one piece, the whole file),
  /// each piece whole frames; `emit` may empty the buffer it is given (its capacity is reused when kept).
  /// A 10-minute match's file (30 MB) is then never held whole while it is written.
  static func render(
    _ motion: MotionModel, naming: MarkerNames, cameras: [Camera], playerNames: [String: String],
    layout: C3DLayout = C3DLayout(), file: String, pieceBytes: Int?, _ emit: (inout [UInt8]) throws -> Void
  ) throws {
    guard let frames = motion.frames, motion.fps.isFinite, motion.fps > 0 else {
      throw InputError(file: file, "nothing to write: the match has no frames")
    }
    let set = MarkerSet(skeleton: motion.skeleton, naming: naming)
    let (labels, descriptions, columns, subjects) = points(motion, set: set, playerNames: playerNames, plainNames: layout.plainNames)
    guard !labels.isEmpty else { throw InputError(file: file, "nothing to write: the match has no tracks") }
    guard labels.count <= Int(Int16.max) else {
      throw InputError(file: file, "\(labels.count) markers are more than a C3D file holds (\(Int16.max))")
    }

    let frameCount = frames.count
    var params = ParameterSection()
    let point = params.group("POINT", "3-D point parameters")
    params.int16(point, "USED", [labels.count], "markers per frame")
    params.float(point, "SCALE", [-Float(residualUnit)], "negative: float data; residual unit, m")
    params.float(point, "RATE", [Float(motion.fps)], "frames per second")
    params.int16(point, "DATA_START", [0], "first block of the data section")  // patched below
    params.int16(point, "FRAMES", [Int(UInt16(min(frameCount, 65535)))], "frames (see LONG_FRAMES)")
    params.float(point, "LONG_FRAMES", [Float(frameCount)], "frames")
    params.string(point, "UNITS", "m", "metres")
    for (n, chunk) in stride(from: 0, to: labels.count, by: 255).enumerated() {
      let end = min(chunk + 255, labels.count)
      params.strings(point, n == 0 ? "LABELS" : "LABELS\(n + 1)", Array(labels[chunk..<end]), "marker labels")
      params.strings(point, n == 0 ? "DESCRIPTIONS" : "DESCRIPTIONS\(n + 1)", Array(descriptions[chunk..<end]), "")
    }
    let analog = params.group("ANALOG", "analog data")
    params.int16(analog, "USED", [0], "no analog channels")
    params.float(analog, "RATE", [0], "")
    let trial = params.group("TRIAL", "trial")
    params.int16(trial, "ACTUAL_START_FIELD", [1, 0], "first frame: low and high 16-bit words")
    params.int16(trial, "ACTUAL_END_FIELD", [Int(UInt16(frameCount & 0xffff)), frameCount >> 16], "last frame: low and high 16-bit words")
    let subjectsGroup = params.group("SUBJECTS", "people; ball markers have no prefix")
    params.int16(subjectsGroup, "USES_PREFIXES", [layout.plainNames ? 0 : 1], layout.plainNames ? "labels are the markers alone" : "labels start with the subject's prefix")
    params.int16(subjectsGroup, "NUMBER", [subjects.count], "")
    if !subjects.isEmpty {
      params.strings(subjectsGroup, "NAMES", subjects.map { C3DLabels.text(playerNames[$0.id] ?? $0.id) }, "")
      params.strings(subjectsGroup, "LABEL_PREFIXES", subjects.map(\.prefix), "")
    }
    let maker = params.group("MANUFACTURER", "who wrote the file")
    params.string(maker, "COMPANY", "MatchScene", "")
    params.string(maker, "SOFTWARE", "matchscene", "")
    let ours = params.group("MATCHSCENE", "MatchScene")
    params.float(ours, "FIRST_FRAME", [Float(frames.lowerBound)], "match frame of C3D frame 1")
    if layout.yUp {
      params.string(ours, "FRAME", "opensim", "coordinates: OpenSim's y-up frame, (x, z, -y) of the world")
    } else {
      params.string(ours, "FRAME", "world", "coordinates: the calibration's world frame, as tracks.csv")
    }

    let parameterBlocks = (4 + params.bytes.count + 511) / 512
    let dataStart = 2 + parameterBlocks
    params.patchDataStart(dataStart)

    // Blocks are numbered from 1: the header is block 1, the data starts at byte 512 × (dataStart − 1).
    var out = [UInt8](repeating: 0, count: 512 * (dataStart - 1))
    // Header.
    out[0] = 2
    out[1] = 0x50
    putInt16(&out, at: 2, labels.count)
    putInt16(&out, at: 4, 0)
    putInt16(&out, at: 6, 1)
    putInt16(&out, at: 8, Int(UInt16(min(frameCount, 65535))))
    putInt16(&out, at: 10, 0)
    putFloat(&out, at: 12, -Float(residualUnit))
    putInt16(&out, at: 16, dataStart)
    putInt16(&out, at: 18, 0)
    putFloat(&out, at: 20, Float(motion.fps))
    // Parameter section.
    out[512] = 1
    out[513] = 0x50
    out[514] = UInt8(parameterBlocks)
    out[515] = 84
    out.replaceSubrange(516..<(516 + params.bytes.count), with: params.bytes)

    // Data.
    let metresPerPixel = MetresPerPixel(cameras: cameras)
    let frameBytes = labels.count * 16
    let piece = pieceBytes.map { max($0, frameBytes) } ?? out.count + frameCount * frameBytes
    out.reserveCapacity(min(out.count + frameCount * frameBytes, piece + frameBytes))
    for frame in frames {
      if out.count >= piece {
        try emit(&out)
        out.removeAll(keepingCapacity: true)
      }
      for column in columns {
        let track = motion.tracks[column.track]
        let s = track.kind == .ball
          ? (track.frames.contains(frame) ? track[joint: 0, frame: frame] : .missing)
          : set.sample(column.marker, of: track, frame: frame)
        let finite = s.position.x.isFinite && s.position.y.isFinite && s.position.z.isFinite
        guard s.isPresent, finite else {
          appendFloats(&out, 0, 0, 0, -1)
          continue
        }
        var residual: Float = 0
        if s.state == .measured {
          residual = residualWord(units: residualUnits(metres: max(0, s.reprojectionPx) * metresPerPixel(s.position)))
        }
        let p = layout.yUp ? TRCWriter.openSimFromWorld(s.position) : s.position
        appendFloats(&out, Float(p.x), Float(p.y), Float(p.z), residual)
      }
    }
    // No padding after the last frame: readers that count frames from the file's size (ezc3d beyond
    // 65535 frames) would read padding as frames.
    if !out.isEmpty { try emit(&out) }
  }

  /// Size of the pieces `write` renders and writes one after another.
  static let writePieceBytes = 4 << 20

  /// Writes `url` whole (`AtomicFile`: a temporary file renamed over `url`), rendered and written in
  /// 4 MB pieces, the same bytes as `render`.
  public static func write(
    _ motion: MotionModel, naming: MarkerNames = .keypoints, cameras: [Camera] = [],
    playerNames: [String: String] = [:], layout: C3DLayout = C3DLayout(), to url: URL
  ) throws {
    try AtomicFile.write(to: url) { write in
      try render(
        motion, naming: naming, cameras: cameras, playerNames: playerNames, layout: layout, file: url.path,
        pieceBytes: writePieceBytes
      ) { piece in try piece.withUnsafeBytes { try write($0) } }
    }
  }

  private static func putInt16(_ out: inout [UInt8], at offset: Int, _ value: Int) {
    let v = UInt16(truncatingIfNeeded: value)
    out[offset] = UInt8(v & 0xff)
    out[offset + 1] = UInt8(v >> 8)
  }

  private static func putFloat(_ out: inout [UInt8], at offset: Int, _ value: Float) {
    let v = value.bitPattern
    for k in 0..<4 { out[offset + k] = UInt8((v >> (8 * UInt32(k))) & 0xff) }
  }

  @inline(__always) private static func appendFloats(_ out: inout [UInt8], _ a: Float, _ b: Float, _ c: Float, _ d: Float) {
    appendFloat(&out, a)
    appendFloat(&out, b)
    appendFloat(&out, c)
    appendFloat(&out, d)
  }

  /// One IEEE Float32, little-endian (C3D processor type 84).
  @inline(__always) private static func appendFloat(_ out: inout [UInt8], _ value: Float) {
    let v = value.bitPattern
    out.append(UInt8(v & 0xff))
    out.append(UInt8((v >> 8) & 0xff))
    out.append(UInt8((v >> 16) & 0xff))
    out.append(UInt8(v >> 24))
  }

}

/// Metres on the object per pixel of image error at a point: the mean over the cameras it lies in front
/// of, of depth / focal length (pinhole back-projection of a small image displacement).
struct MetresPerPixel {
  let cameras: [Camera]

  func callAsFunction(_ point: SIMD3<Double>) -> Double {
    var sum = 0.0, count = 0
    for camera in cameras {
      let depth = camera.camFromWorld.apply(point).z
      let focal = (camera.fx + camera.fy) / 2
      guard depth > 0, focal > 0 else { continue }
      sum += depth / focal
      count += 1
    }
    return count > 0 ? sum / Double(count) : residualFallback
  }

  /// Without cameras: 1 mm per pixel.
  private var residualFallback: Double { C3DWriter.residualUnit }
}
