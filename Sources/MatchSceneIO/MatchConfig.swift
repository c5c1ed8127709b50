import Foundation
import MatchSceneCore

/// The optional `match.toml` of a match folder; every field is optional.
///
/// ```toml
/// sport = "table-tennis"
/// fps = 60
/// skeleton = "coco17"   # a name of Skeleton.builtIn, or a [skeleton] table (below)
/// up = "z"              # the calibration world's up axis: x, y, z, -x, -y or -z (default z)
///
/// [frame_offsets]       # cameraFrame = matchFrame + offset
/// cam01 = 0
/// cam02 = -3
///
/// [venue]               # where the venue is in the calibration's world (see MatchConfig+Venue.swift)
/// up = [0, 0, 1]        # or "z", "-y", …
/// origin = [1.2, -0.4, 0.0]      # on the floor below the table's centre, metres
/// long_axis = [0.87, 0.5, 0]     # or heading = 30.0 (degrees about up from the world x axis)
///
/// [players]             # names of the player tracks
/// P1 = "Ana"
/// ```
///
/// Instead of a built-in name, `skeleton` may be a table defining the detector's own keypoints
/// (see `MatchConfig+Skeleton.swift` for the checks):
///
/// ```toml
/// [skeleton]
/// name = "paddle-player"
/// keypoints = ["head", "left_hand", "right_hand", "hip"]
/// bones = [["head", "hip"], ["hip", "left_hand"], ["hip", "right_hand"]]
/// mirror = [["left_hand", "right_hand"]]   # optional; default: left_X ↔ right_X, LX ↔ RX by name
/// ```
public struct MatchConfig: Sendable, Equatable {
  public var sport: String?
  /// Frames per second, positive.
  public var fps: Double?
  /// The skeleton's name: a built-in one, or `customSkeleton`'s when the `[skeleton]` table is used.
  public var skeleton: String?
  /// The skeleton defined by a `[skeleton]` table; nil when `skeleton` is a name or absent.
  public var customSkeleton: Skeleton?
  /// One of `x`, `y`, `z`, `-x`, `-y`, `-z` (`+x` etc. are accepted on reading).
  public var up: String?
  /// Per camera: `cameraFrame = matchFrame + offset`.
  public var frameOffsets: [String: Int] = [:]
  /// The `[venue]` table: where the venue is in the calibration's world.
  public var venue: VenueFrame?
  /// The `[players]` table: a name per player track id (`P1 = "Ana"`).
  public var players: [String: String] = [:]

  public init(
    sport: String? = nil, fps: Double? = nil, skeleton: String? = nil, up: String? = nil, frameOffsets: [String: Int] = [:],
    customSkeleton: Skeleton? = nil
  ) {
    self.sport = sport
    self.fps = fps
    self.skeleton = customSkeleton?.name ?? skeleton
    self.up = up
    self.frameOffsets = frameOffsets
    self.customSkeleton = customSkeleton
  }

  /// The keys `read` understands.
  public static let knownKeys: Set<String> = ["sport", "fps", "skeleton", "up", "frame_offsets", "venue", "players"]

  /// Reads `match.toml`.
  /// - Throws: `InputError` naming the file and key of a wrong value (`fps` not positive, an unknown
  ///   `up`, a non-integer frame offset, a malformed `[skeleton]` table) or the line and column of a
  ///   TOML syntax error. Unknown keys are not errors (see `unknownKeys(in:)`).
  public static func read(from url: URL) throws -> MatchConfig {
    try parse(TOMLDocument(contentsOf: url))
  }

  /// Parses `match.toml` text; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws -> MatchConfig {
    try parse(TOMLDocument(text: text, file: file))
  }

  static func parse(_ doc: TOMLDocument) throws -> MatchConfig {
    let root = doc.rootView
    var config = MatchConfig()
    config.sport = try root.string("sport")
    config.fps = try root.number("fps")
    if let fps = config.fps, !(fps > 0) { throw root.fail("fps", "must be positive, got \(fps)") }
    if doc.root["skeleton"]?.table != nil, let table = try root.subtable("skeleton") {
      config.customSkeleton = try customSkeleton(table)
      config.skeleton = config.customSkeleton?.name
    } else {
      config.skeleton = try root.string("skeleton")
    }
    config.up = try root.string("up")
    if let up = config.up, upVector(up) == nil { throw root.fail("up", "expected x, y, z, -x, -y or -z, got '\(up)'") }
    if let offsets = try root.subtable("frame_offsets") {
      for key in offsets.keys { config.frameOffsets[key] = try offsets.int(key) }
    }
    let up = config.up.flatMap(upVector) ?? SIMD3(0, 0, 1)
    if let table = try root.subtable("venue") { config.venue = try venue(table, worldUp: up) }
    if let table = try root.subtable("players") { config.players = try players(table) }
    return config
  }

  /// Keys of a `match.toml` that `read` ignores (likely typos), sorted: top-level ones, and
  /// `skeleton.<key>` inside a `[skeleton]` table.
  static func unknownKeys(in doc: TOMLDocument) -> [String] {
    var unknown = doc.root.keys.filter { !knownKeys.contains($0) }
    if let table = doc.root["skeleton"]?.table {
      unknown += table.keys.filter { !skeletonTableKeys.contains($0) }.map { "skeleton.\($0)" }
    }
    if let table = doc.root["venue"]?.table {
      unknown += table.keys.filter { !venueTableKeys.contains($0) }.map { "venue.\($0)" }
    }
    return unknown.sorted()
  }

  /// The unit vector of an axis name (`z`, `-y`, `+x`, …), or nil for anything else.
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

  /// The axis name (`z`, `-y`, …) of the coordinate axis closest to `v`.
  public static func upName(_ v: SIMD3<Double>) -> String {
    let names = ["x", "y", "z"]
    let i = (0..<3).max { abs(v[$0]) < abs(v[$1]) }!
    return (v[i] < 0 ? "-" : "") + names[i]
  }

  /// The file's text: the set fields, a `[skeleton]` table for a custom skeleton (with its mirror
  /// pairs written out), then `[frame_offsets]` sorted by camera. `fps` is written with round-trip
  /// precision.
  public func render() -> String {
    var out = ""
    if let sport { out += "sport = \(CalibrationTOML.quoteString(sport))\n" }
    if let fps { out += "fps = \(CalibrationTOML.tomlNumber(fps))\n" }
    if customSkeleton == nil, let skeleton { out += "skeleton = \(CalibrationTOML.quoteString(skeleton))\n" }
    if let up { out += "up = \(CalibrationTOML.quoteString(up))\n" }
    if let customSkeleton { out += "\n" + Self.renderSkeletonTable(customSkeleton) }
    if !frameOffsets.isEmpty {
      out += "\n[frame_offsets]\n"
      for (camera, offset) in frameOffsets.sorted(by: { $0.key < $1.key }) {
        out += "\(CalibrationTOML.quoteKey(camera)) = \(offset)\n"
      }
    }
    if let venue { out += "\n" + Self.renderVenueTable(venue) }
    if !players.isEmpty {
      out += "\n[players]\n"
      for (id, name) in players.sorted(by: { $0.key < $1.key }) {
        out += "\(CalibrationTOML.quoteKey(id)) = \(CalibrationTOML.quoteString(name))\n"
      }
    }
    return out
  }

  /// Writes `render()` atomically.
  public func write(to url: URL) throws { try AtomicFile.write(render(), to: url) }
}
