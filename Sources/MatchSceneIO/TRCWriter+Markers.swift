import Foundation
import MatchSceneCore

extension TRCWriter {
  /// TRC text of one person's track with the markers of `markers` (the skeleton's keypoints, or Pose2Sim's
  /// names with the derived `Hip` and `Neck`), over the track's first to last frame with any marker.
  /// Same layout as `render(track:points:…)`; empty for a track without samples.
  public static func render(
    _ track: MotionTrack, markers: MarkerSet, fps: Double, fileName: String, yUp: Bool = true
  ) -> String {
    let frames = track.frames
    guard let first = frames.first(where: { f in (0..<markers.count).contains { markers.sample($0, of: track, frame: f).isPresent } }),
      let last = frames.reversed().first(where: { f in (0..<markers.count).contains { markers.sample($0, of: track, frame: f).isPresent } })
    else { return "" }
    return text(markers: markers.names, frames: first...last, fps: fps, fileName: fileName, yUp: yUp) { frame, m in
      let s = markers.sample(m, of: track, frame: frame)
      return s.isPresent ? s.position : nil
    }
  }

  /// Writes `<folder>/<track>.trc` for every person of `motion` (players and others) with markers named
  /// by `naming`; returns the files written.
  public static func writeAll(
    _ motion: MotionModel, naming: MarkerNames = .keypoints, to folder: URL, yUp: Bool = true
  ) throws -> [URL] {
    let markers = MarkerSet(skeleton: motion.skeleton, naming: naming)
    var written: [URL] = []
    for track in motion.tracks where track.kind != .ball {
      let url = folder.appendingPathComponent("\(track.id).trc")
      let text = render(track, markers: markers, fps: motion.fps, fileName: url.lastPathComponent, yUp: yUp)
      guard !text.isEmpty else { continue }
      try AtomicFile.write(text, to: url)
      written.append(url)
    }
    return written
  }
}
