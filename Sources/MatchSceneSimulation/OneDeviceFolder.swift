import Foundation
import MatchSceneCore
import MatchSceneIO

/// Match folders for one device, simulated: the device file of a person of the truth, and the
/// `[device]` table that places it.
public enum OneDeviceFolder {
  /// The device's placement for `track` of `truth`: MediaPipe's origin at the person's mean hip
  /// centre, the camera looking along +x; ARKit's session origin 3 m before the person's mean hip
  /// centre along −x at 1.2 m height, looking back along +x.
  public static func device(for truth: MotionModel, track: String, format: DeviceConfig.Format, file: URL) -> DeviceConfig {
    var sum = SIMD3<Double>.zero, n = 0.0
    if let t = truth.trackIndex(track), let l = truth.skeleton.index(of: .leftHip), let r = truth.skeleton.index(of: .rightHip) {
      for frame in truth.tracks[t].frames {
        guard let a = truth.tracks[t].position(joint: l, frame: frame), let b = truth.tracks[t].position(joint: r, frame: frame) else { continue }
        sum += (a + b) / 2
        n += 1
      }
    }
    let hips = n > 0 ? sum / n : .zero
    switch format {
    case .mediapipe: return DeviceConfig(format: format, file: file, origin: hips, headingDegrees: 0)
    case .arkit: return DeviceConfig(format: format, file: file, origin: SIMD3(hips.x - 3, hips.y, 1.2), headingDegrees: 0)
    }
  }

  /// Writes `device/<format>.json` in `folder` for `track` of `truth` (venue coordinates) with the
  /// format's noise, and returns the `[device]` table that reads it back.
  public static func writeDevice(_ truth: MotionModel, track: String, format: DeviceConfig.Format, seed: UInt64, to folder: URL) throws -> String {
    let name = "device/\(format.rawValue).json"
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let device = device(for: truth, track: track, format: format, file: url)
    let data = format == .mediapipe
      ? try OneDeviceExport.mediapipe(truth, track: track, device: device, seed: seed)
      : try OneDeviceExport.arkit(truth, track: track, device: device, seed: seed)
    try AtomicFile.write(data, to: url)
    let o = device.origin
    return """
      [device]
      format = "\(format.rawValue)"
      file = "\(name)"
      origin = [\(o.x), \(o.y), \(o.z)]
      heading_degrees = \(device.headingDegrees)
      track = "\(track)"

      """
  }

  /// Adds what one device gives for `track` of a simulated match to its match folder `folder`: the
  /// device file (`writeDevice`, from the truth) and its `[device]` table appended to `match.toml`, so
  /// that `reconstruct` reads the device instead of the cameras.
  public static func addDevice(of simulated: SimulatedMatch, track: String, format: DeviceConfig.Format, seed: UInt64, to folder: URL) throws {
    let table = try writeDevice(simulated.truth, track: track, format: format, seed: seed, to: folder)
    let config = folder.appendingPathComponent("match.toml")
    let text = (try? String(contentsOf: config, encoding: .utf8)) ?? ""
    try AtomicFile.write(Data((text + "\n" + table).utf8), to: config)
  }

  /// A touch drill as a one-device match folder: `match.toml` (fps, `[device]`), the device file,
  /// `drill.toml`, `zones.toml` (the drill's targets as zones), and the truth: `truth/tracks.csv`,
  /// `truth/drill.json`.
  public static func writeTouchDrill(_ sim: SimulatedTouchDrill, format: DeviceConfig.Format, seed: UInt64, to folder: URL) throws {
    let table = try writeDevice(sim.truth, track: "P1", format: format, seed: seed, to: folder)
    try AtomicFile.write(Data("fps = \(sim.truth.fps)\n\n\(table)".utf8), to: folder.appendingPathComponent("match.toml"))
    try AtomicFile.write(Data(DrillTOML.text(sim.drill).utf8), to: folder.appendingPathComponent("drill.toml"))
    try AtomicFile.write(Data(ZonesTOML.text(sim.drill.targets).utf8), to: folder.appendingPathComponent("zones.toml"))
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("truth"), withIntermediateDirectories: true)
    try TracksCSV.write(sim.truth, to: folder.appendingPathComponent("truth/tracks.csv"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(sim.truthResult), to: folder.appendingPathComponent("truth/drill.json"))
  }
}
