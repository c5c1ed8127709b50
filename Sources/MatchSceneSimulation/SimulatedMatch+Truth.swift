import Foundation
import MatchSceneCore
import MatchSceneIO

extension SimulatedMatch {
  /// Writes the ground truth beside the match folder's inputs, in `<folder>/truth/`: `tracks.csv` (every
  /// track, as `reconstruct` writes its own), `events.json`, `strokes.json`, `players.json` (heights and bones); `calibration.toml` (the true
  /// cameras) when the rig's calibration was given errors (`RigConfig.calibrationError`), and
  /// `camera_sync.json` (each camera's true offset and phase) when the cameras were unsynchronised
  /// (`SimulationConfig.unsync`). `matchscene evaluate --truth <folder>/truth` reads it.
  /// - Throws: when a file cannot be written.
  public func writeTruth(to folder: URL) throws {
    let truthFolder = folder.appendingPathComponent("truth")
    try MatchOutput.writeTracks(truth, in: truthFolder, trackOrder: truthRowOrder)
    try MatchOutput.writeEvents(events, in: truthFolder)
    try SimulatedStroke.jsonData(strokes).write(to: truthFolder.appendingPathComponent("strokes.json"))
    try playersTruthJSON().write(to: truthFolder.appendingPathComponent("players.json"))
    if let ball { try ball.jsonData().write(to: truthFolder.appendingPathComponent("ball.json")) }
    if config.rig.calibrationError.simulate {
      try CalibrationTOML.write(trueCameras, to: truthFolder.appendingPathComponent("calibration.toml"))
    }
    if config.unsync.simulate {
      try SimulatedCameraClock.jsonData(clocks).write(to: truthFolder.appendingPathComponent("camera_sync.json"))
    }
  }

  /// The order of the truth's tracks within a frame of `truth/tracks.csv`: the players, the bystander,
  /// then the ball (the order the simulator made them in).
  var truthRowOrder: [Int] {
    func rank(_ kind: TrackKind) -> Int { kind == .player ? 0 : kind == .person ? 1 : 2 }
    return truth.tracks.indices.sorted { (rank(truth.tracks[$0].kind), truth.tracks[$0].id) < (rank(truth.tracks[$1].kind), truth.tracks[$1].id) }
  }
}
