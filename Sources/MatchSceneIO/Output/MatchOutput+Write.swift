import Foundation
import MatchSceneCore

extension MatchOutput {
  /// Writes `tracks.csv` of `motion` into `folder` (`TracksCSV`), whole; `trackOrder` orders the tracks
  /// within a frame (default people by id, then the ball).
  public static func writeTracks(_ motion: MotionModel, in folder: URL, trackOrder: [Int]? = nil) throws {
    try TracksCSV.write(motion, to: url(.tracks, in: folder), trackOrder: trackOrder)
  }

  /// Writes `tracks_wide.csv` of `motion` into `folder` (`TracksWideCSV`), whole.
  public static func writeWideTracks(_ motion: MotionModel, in folder: URL) throws {
    // A sparse match's rows cover its compact frames, each at its real frame (`FrameAxis`).
    let frames = motion.axis.isIdentity ? nil : motion.frames.map { $0.map(motion.axis.real) }
    try TracksWideCSV.write(motion.rows, skeleton: motion.skeleton, fps: motion.fps, frames: frames, to: url(.tracksWide, in: folder))
  }

  /// Writes `events.json` into `folder` (`EventsJSON`), whole.
  public static func writeEvents(_ events: [MatchEvent], in folder: URL) throws {
    try EventsJSON.write(events, to: url(.events, in: folder))
  }

  /// Writes `match.json` into `folder`, whole, keys sorted.
  public static func writeManifest(_ manifest: MatchManifest, in folder: URL) throws {
    try writeJSON(manifest, as: .manifest, in: folder)
  }

  /// Writes `value` as `file` in `folder`: pretty-printed JSON with sorted keys, whole (`AtomicFile`)
  /// (`report.json`, `score.json`, `drill.json`).
  /// - Returns: the file's URL.
  @discardableResult
  public static func writeJSON<Value: Encodable>(_ value: Value, as file: File, in folder: URL) throws -> URL {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let target = url(file, in: folder)
    try AtomicFile.write(try encoder.encode(value), to: target)
    return target
  }

  /// Writes `file` in `folder` whole (`AtomicFile`) from the pieces `render` hands its `emit`
  /// (`views.csv`, rendered in pieces of a few MB).
  public static func write(
    _ file: File, in folder: URL, render: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    try AtomicFile.write(to: url(file, in: folder), emitting: render)
  }
}
