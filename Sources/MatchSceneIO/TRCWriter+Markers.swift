import Foundation
import MatchSceneCore

extension TRCWriter {
  /// TRC text of one person's track with the markers of `markers` (the skeleton's keypoints, or Pose2Sim's
  /// names with the derived `Hip` and `Neck`), over the track's first to last frame with any marker.
  /// Same layout as `render(track:points:…)`; empty for a track without samples.
  public static func render(
    _ track: MotionTrack, markers: MarkerSet, fps: Double, fileName: String, yUp: Bool = true
  ) -> String {
    guard let range = sampledFrames(of: track, markers: markers) else { return "" }
    return text(markers: markers.names, frames: range, fps: fps, fileName: fileName, yUp: yUp) { frame, m in
      let s = markers.sample(m, of: track, frame: frame)
      return s.isPresent ? s.position : nil
    }
  }

  /// TRC text of one person's track with every position mapped by `place` (e.g. into OpenSim's frame, see
  /// `MatchSceneOpenSim`) and written as it comes (no y-up turn), over the track's first to last frame with
  /// any marker; rows carry the real frame numbers and times of `axis`. Empty for a track without samples.
  public static func render(
    _ track: MotionTrack, markers: MarkerSet, fps: Double, fileName: String, axis: FrameAxis = .identity,
    place: (SIMD3<Double>) -> SIMD3<Double>
  ) -> String {
    guard let range = sampledFrames(of: track, markers: markers) else { return "" }
    var whole = TextBuffer()
    render(
      markers: markers.names, frames: range, fps: fps, fileName: fileName, yUp: false, pieceBytes: nil, axis: axis,
      position: { frame, m in
        let s = markers.sample(m, of: track, frame: frame)
        return s.isPresent ? place(s.position) : nil
      }
    ) { swap(&whole, &$0) }
    return whole.string
  }

  /// The track's first to last frame with any marker present; nil when it has none.
  static func sampledFrames(of track: MotionTrack, markers: MarkerSet) -> ClosedRange<Int>? {
    let frames = track.frames
    let sampled = { (f: Int) in (0..<markers.count).contains { markers.sample($0, of: track, frame: f).isPresent } }
    guard let first = frames.first(where: sampled), let last = frames.reversed().first(where: sampled) else { return nil }
    return first...last
  }

  /// Writes `<folder>/<track>.trc` for every person of `motion` (players and others) with markers named
  /// by `naming`; returns the files written. Each file is rendered and written in 4 MB pieces (the bytes
  /// of `render(_:markers:fps:fileName:yUp:)`), through `AtomicFile`.
  public static func writeAll(
    _ motion: MotionModel, naming: MarkerNames = .keypoints, to folder: URL, yUp: Bool = true
  ) throws -> [URL] {
    let markers = MarkerSet(skeleton: motion.skeleton, naming: naming)
    var written: [URL] = []
    let files = try FileName.files(motion.tracks.map(\.id), suffix: ".trc", in: folder)
    for track in motion.tracks where track.kind != .ball {
      let url = files[track.id]!
      guard let range = sampledFrames(of: track, markers: markers) else { continue }
      try AtomicFile.write(to: url) { write in
        try render(
          markers: markers.names, frames: range, fps: motion.fps, fileName: url.lastPathComponent, yUp: yUp,
          pieceBytes: writePieceBytes, axis: motion.axis,
          position: { frame, m in
            let s = markers.sample(m, of: track, frame: frame)
            return s.isPresent ? s.position : nil
          }
        ) { piece in try piece.bytes.withUnsafeBytes { try write($0) } }
      }
      written.append(url)
    }
    return written
  }
}
