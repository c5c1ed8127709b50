import Foundation
import MatchSceneCore
import MatchSceneIO

extension SimulatedMatch {
  /// Writes the ground truth beside the match folder's inputs, in `<folder>/truth/`: `tracks.csv` (every
  /// track, as `reconstruct` writes its own), `events.json`, `strokes.json`; `calibration.toml` (the true
  /// cameras) when the rig's calibration was given errors (`RigConfig.calibrationError`), and
  /// `camera_sync.json` (each camera's true offset and phase) when the cameras were unsynchronised
  /// (`SimulationConfig.unsync`). `matchscene evaluate --truth <folder>/truth` reads it.
  /// - Throws: when a file cannot be written.
  public func writeTruth(to folder: URL) throws {
    let truthFolder = folder.appendingPathComponent("truth")
    try MatchOutput.writeTracks(truth.points, in: truthFolder)
    try MatchOutput.writeEvents(events, in: truthFolder)
    try SimulatedStroke.jsonData(strokes).write(to: truthFolder.appendingPathComponent("strokes.json"))
    if config.rig.calibrationError.simulate {
      try CalibrationTOML.write(trueCameras, to: truthFolder.appendingPathComponent("calibration.toml"))
    }
    if config.unsync.simulate {
      try SimulatedCameraClock.jsonData(clocks).write(to: truthFolder.appendingPathComponent("camera_sync.json"))
    }
  }
}
