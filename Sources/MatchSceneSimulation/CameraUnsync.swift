import Foundation
import MatchSceneCore

/// Cameras that were not started together: real rigs are rarely genlocked. The first
/// camera is the match's clock; every other camera gets a hidden time offset τ = o + φ frames — a whole
/// number o uniform in ±`maxFrames` and, with `subFramePhase`, a phase φ uniform in [−0.5, 0.5) — drawn
/// from the seed (`RandomStream.unsync`). Its frame k then shows the scene at match time (k − τ)/fps, and
/// its detections are numbered by its own frames. `match.toml` says nothing of these offsets (finding them
/// is the reconstruction's job); `truth/camera_sync.json` holds them.
public struct CameraUnsync: Sendable, Equatable {
  /// Largest whole-frame offset, frames; 0 = synchronised cameras (the default).
  public var maxFrames: Int
  /// Whether cameras also get a random sub-frame phase.
  public var subFramePhase: Bool

  public init(maxFrames: Int = 0, subFramePhase: Bool = true) {
    self.maxFrames = maxFrames
    self.subFramePhase = subFramePhase
  }

  public var simulate: Bool { maxFrames > 0 }

  /// Each camera's offset τ (frames, camera frame minus match frame, `cameraFrame = matchFrame + τ`);
  /// all 0 when off.
  func offsets(cameras: Int, seed: UInt64) -> [Double] {
    guard simulate else { return Array(repeating: 0, count: cameras) }
    var rng = RandomStream.unsync.generator(seed: seed)
    return (0..<cameras).map { i in
      let whole = rng.integer(-maxFrames...maxFrames)
      let phase = subFramePhase ? rng.uniform() - 0.5 : 0
      return i == 0 ? 0 : Double(whole) + phase
    }
  }

  func validate() throws {
    guard (0...10_000).contains(maxFrames) else {
      throw InputError(file: "simulation", location: .key("unsync.max_frames"), "must lie in 0…10000, got \(maxFrames)")
    }
  }
}

/// A simulated camera's true clock: `cameraFrame = matchFrame + offset`, with `offset = frames + phase`.
public struct SimulatedCameraClock: Sendable, Equatable, Codable {
  public var camera: String
  /// The nearest whole number of frames of `offset`.
  public var frames: Int
  /// `offset − frames`, in [−0.5, 0.5).
  public var phase: Double
  public var offset: Double { Double(frames) + phase }

  public init(camera: String, offset: Double) {
    self.camera = camera
    frames = Int(offset.rounded())
    phase = offset - Double(frames)
  }
}

extension SimulatedCameraClock {
  /// `truth/camera_sync.json`: `[{"camera": "cam2", "frames": -12, "phase": 0.31, "offset": -11.69}, …]`,
  /// `cameraFrame = matchFrame + offset`.
  public static func jsonData(_ clocks: [SimulatedCameraClock]) throws -> Data {
    let objects = clocks.map { c -> [String: Any] in
      ["camera": c.camera, "frames": c.frames, "phase": c.phase, "offset": c.offset]
    }
    return try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
  }

  /// Reads `truth/camera_sync.json` (see `jsonData`). - Throws: `InputError` naming the file.
  public static func read(from url: URL) throws -> [SimulatedCameraClock] {
    let data = try Data(contentsOf: url)
    guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw InputError(file: url.path, "expected an array of {camera, offset} objects")
    }
    return try array.enumerated().map { i, object in
      guard let camera = object["camera"] as? String, let offset = object["offset"] as? Double else {
        throw InputError(file: url.path, location: .key("[\(i)]"), "expected a camera name and a numeric offset")
      }
      return SimulatedCameraClock(camera: camera, offset: offset)
    }
  }
}
