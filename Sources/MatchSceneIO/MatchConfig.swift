import Foundation
import MatchSceneCore

/// The optional `match.toml` of a match folder.
///
/// ```toml
/// sport = "table-tennis"
/// fps = 60
/// skeleton = "coco17"
/// up = "z"            # the calibration world's up axis: x, y, z, -x, -y or -z
/// [frame_offsets]     # cameraFrame = matchFrame + offset
/// cam01 = 0
/// ```
public struct MatchConfig: Sendable, Equatable {
  public var sport: String?
  public var fps: Double?
  public var skeleton: String?
  public var up: String?
  public var frameOffsets: [String: Int] = [:]

  public init(sport: String? = nil, fps: Double? = nil, skeleton: String? = nil, up: String? = nil, frameOffsets: [String: Int] = [:]) {
    self.sport = sport
    self.fps = fps
    self.skeleton = skeleton
    self.up = up
    self.frameOffsets = frameOffsets
  }

  public static func read(from url: URL) throws -> MatchConfig {
    let doc = try TOMLDocument(contentsOf: url)
    let root = doc.rootView
    var config = MatchConfig()
    config.sport = try root.string("sport")
    config.fps = try root.number("fps")
    if let fps = config.fps, !(fps > 0) { throw root.fail("fps", "must be positive, got \(fps)") }
    config.skeleton = try root.string("skeleton")
    config.up = try root.string("up")
    if let up = config.up, upVector(up) == nil { throw root.fail("up", "expected x, y, z, -x, -y or -z, got '\(up)'") }
    if let offsets = try root.subtable("frame_offsets") {
      for key in offsets.keys { config.frameOffsets[key] = try offsets.int(key) }
    }
    return config
  }

  /// The unit vector of an axis name (`z`, `-y`, …).
  public static func upVector(_ name: String) -> SIMD3<Double>? {
    switch name.lowercased().trimmingCharacters(in: .whitespaces) {
    case "x", "+x": SIMD3(1, 0, 0)
    case "-x": SIMD3(-1, 0, 0)
    case "y", "+y": SIMD3(0, 1, 0)
    case "-y": SIMD3(0, -1, 0)
    case "z", "+z": SIMD3(0, 0, 1)
    case "-z": SIMD3(0, 0, -1)
    default: nil
    }
  }

  /// Axis name of a unit axis vector.
  public static func upName(_ v: SIMD3<Double>) -> String {
    let names = ["x", "y", "z"]
    let i = (0..<3).max { abs(v[$0]) < abs(v[$1]) }!
    return (v[i] < 0 ? "-" : "") + names[i]
  }

  public func render() -> String {
    var out = ""
    if let sport { out += "sport = \"\(sport)\"\n" }
    if let fps { out += "fps = \(fps)\n" }
    if let skeleton { out += "skeleton = \"\(skeleton)\"\n" }
    if let up { out += "up = \"\(up)\"\n" }
    if !frameOffsets.isEmpty {
      out += "\n[frame_offsets]\n"
      for (camera, offset) in frameOffsets.sorted(by: { $0.key < $1.key }) {
        out += "\(CalibrationTOML.quoteKey(camera)) = \(offset)\n"
      }
    }
    return out
  }

  public func write(to url: URL) throws { try AtomicFile.write(render(), to: url) }
}
