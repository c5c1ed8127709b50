import Foundation
import MatchSceneCore

/// The optional `match.toml` of a match folder; every field is optional.
///
/// ```toml
/// sport = "table-tennis"
/// fps = 60
/// skeleton = "coco17"   # a name of Skeleton.builtIn, or a [skeleton] table (below)
/// up = "z"              # the calibration world's up axis: x, y, z, -x, -y or -z (default z)
/// view_gate = 5         # reject views beyond this many of their camera's noise scales (0: fixed 8 px)
/// view_weights = "noise" # weigh views by 1 / their camera's noise scale, or "equal"
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
  /// Frames per second, within `fpsRange`.
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
  /// The `[score]` table: rules, policy, claim hold time (see `MatchConfig+Score.swift`).
  public var score: ScoreSettings?
  /// `view_gate`: reject a view whose reprojection error exceeds this many of its camera's noise scales
  /// (0: the fixed pixel gate).
  public var viewGate: Double?
  /// Largest accepted `view_gate`, noise units.
  public static let maxViewGate = 100.0
  /// `view_weights`: "noise" (each view weighed by 1 / its camera's noise scale) or "equal".
  public var viewWeights: String?

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

  /// The frame rates accepted, frames per second (from `match.toml` or an option).
  public static let fpsRange: ClosedRange<Double> = 1...10_000
  /// The largest `[frame_offsets]` magnitude accepted, frames (over 46 hours at 60 fps).
  public static let maxFrameOffset = 10_000_000

  /// `1–10000` for messages (whole bounds).
  static func shortRange(_ r: ClosedRange<Double>) -> String { "\(Int(r.lowerBound))–\(Int(r.upperBound))" }

  /// The keys `read` understands.
  public static let knownKeys: Set<String> = ["sport", "fps", "skeleton", "up", "frame_offsets", "venue", "players", "device", "score", "view_gate", "view_weights"]

  /// Reads `match.toml`.
  /// - Throws: `InputError` naming the file and key of a wrong value (`fps` outside `fpsRange`, an
  ///   unknown `up`, a frame offset that is not an integer within ±`maxFrameOffset`, a malformed
  ///   `[skeleton]` table) or the line and column of a TOML syntax error. Unknown keys are not errors (see `unknownKeys(in:)`).
  public static func read(from url: URL) throws -> MatchConfig {
    try parse(document(contentsOf: url))
  }

  /// Parses `match.toml` text; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws -> MatchConfig {
    try parse(document(text: text, file: file))
  }

  /// `match.toml` read as TOML (see `document(text:file:)`).
  static func document(contentsOf url: URL) throws -> TOMLDocument {
    try document(text: TOMLDocument.readText(url), file: url.path)
  }

  /// `match.toml` text as TOML. A syntax error in a file holding both `skeleton = "…"` and a
  /// `[skeleton]` table (TOML forbids defining a key twice) gets a hint on the two forms.
  static func document(text: String, file: String) throws -> TOMLDocument {
    do {
      return try TOMLDocument(text: text, file: file)
    } catch var error as InputError where namesSkeletonTwice(text) {
      error.message += "; the skeleton is given either as a name, skeleton = \"body25b\" (a built-in), or as a [skeleton] "
        + "table (name, keypoints, bones) defining your own, not both: keep one"
      throw error
    }
  }

  /// Whether `text` has a top-level `skeleton = …` line and a `[skeleton]` (or `[skeleton.…]`) header.
  static func namesSkeletonTwice(_ text: String) -> Bool {
    var seenHeader = false, assigned = false, table = false
    for line in text.split(whereSeparator: \.isNewline) {
      let t = line.drop { $0 == " " || $0 == "\t" }
      if t.hasPrefix("[") {
        seenHeader = true
        if TOMLDocument.firstKeySegment(t.drop { $0 == "[" }) == "skeleton" { table = true }
      } else if !seenHeader, TOMLDocument.firstKeySegment(t) == "skeleton",
        t.drop(while: { $0 != "=" && $0 != "." }).first == "="
      {
        assigned = true
      }
    }
    return assigned && table
  }

  static func parse(_ doc: TOMLDocument) throws -> MatchConfig {
    let root = doc.rootView
    var config = MatchConfig()
    config.sport = try root.string("sport")
    config.fps = try root.number("fps")
    if let fps = config.fps, !fpsRange.contains(fps) {
      throw root.fail("fps", "must be within \(shortRange(fpsRange)) frames per second, got \(fps)")
    }
    if doc.root["skeleton"]?.table != nil, let table = try root.subtable("skeleton") {
      config.customSkeleton = try customSkeleton(table)
      config.skeleton = config.customSkeleton?.name
    } else {
      config.skeleton = try root.string("skeleton")
    }
    config.up = try root.string("up")
    config.viewGate = try root.number("view_gate")
    config.viewWeights = try root.string("view_weights")
    if let w = config.viewWeights, w != "noise", w != "equal" {
      throw root.fail("view_weights", "expected \"noise\" or \"equal\", got '\(w)'")
    }
    if let gate = config.viewGate, !(gate >= 0 && gate <= maxViewGate) {
      throw root.fail("view_gate", "must be 0 (the fixed pixel gate) or a number of noise scales up to \(Int(maxViewGate)), got \(gate)")
    }
    if let up = config.up, upVector(up) == nil { throw root.fail("up", "expected x, y, z, -x, -y or -z, got '\(up)'") }
    if let offsets = try root.subtable("frame_offsets") {
      for key in offsets.keys {
        let offset = try offsets.int(key)
        guard let offset, offset.magnitude <= maxFrameOffset.magnitude else {
          throw offsets.fail(key, "a frame offset must be within ±\(maxFrameOffset) frames, got \(offsets.table[key].map { "\($0)" } ?? "nothing")")
        }
        config.frameOffsets[key] = offset
      }
    }
    let up = config.up.flatMap(upVector) ?? SIMD3(0, 0, 1)
    if let table = try root.subtable("venue") { config.venue = try venue(table, worldUp: up) }
    if let table = try root.subtable("players") { config.players = try players(table) }
    if let table = try root.subtable("score") { config.score = try score(table) }
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
    if let score { out += "\n" + Self.renderScoreTable(score) }
    return out
  }

  /// Writes `render()` atomically.
  public func write(to url: URL) throws { try AtomicFile.write(render(), to: url) }
}
