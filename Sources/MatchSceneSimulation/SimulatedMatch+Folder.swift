import Foundation
import MatchSceneCore
import MatchSceneIO

extension SimulatedMatch {
  /// Writes the match folder `matchscene reconstruct` reads (`MatchFolder.write`). With unsynchronised
  /// cameras (`SimulationConfig.unsync`) each camera's files cover its own frames, but `match.toml` has
  /// no `[frame_offsets]` for the hidden offsets (only those the rig states): finding them is the
  /// reconstruction's job. The truth is not written here.
  /// - Throws: when a file cannot be written.
  public func writeMatchFolder(to folder: URL) throws {
    guard let frames = match.frameRange else { return }
    guard config.unsync.simulate else { return try MatchFolder.write(match, to: folder, frames: frames) }
    var written = match
    for clock in clocks { written.frameOffsets[clock.camera, default: 0] += clock.frames }
    try MatchFolder.write(written, to: folder, frames: 0...(truth.frames?.upperBound ?? 0))
    let configURL = folder.appendingPathComponent("match.toml")
    var matchConfig = try MatchConfig.read(from: configURL)
    matchConfig.frameOffsets = match.frameOffsets.filter { $0.value != 0 }
    try matchConfig.write(to: configURL)
  }
}
