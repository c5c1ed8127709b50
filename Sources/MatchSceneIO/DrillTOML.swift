import Foundation
import MatchSceneCore
internal import TOMLKit

/// `drill.toml`: a drill's targets and rules.
///
/// ```toml
/// name = "four corners"
/// touch = "ball"        # ball | hands | a list of keypoint names or roles, e.g. ["right_wrist"]
/// order = "any"         # any | sequence (the targets in the order listed, then again)
/// scoring = "hits"      # hits (every hit scores) | targets (each target scores once)
/// time_limit = 60       # seconds from the start (default: none)
/// start = 12.5          # match seconds the drill starts (default: the recording's first frame)
/// track = "P1"          # only this person's touches (default: anyone's)
/// enter_margin = 0.03   # defaults for the targets, as in zones.toml
///
/// [[target]]            # a zone as in zones.toml, without triggers (touch sets them)
/// name = "deep forehand"
/// shape = "box"
/// size = [0.5, 0.5, 0.1]
/// center = [1.0, 0.4, 0.81]
/// points = 2            # default 1
/// ```
public enum DrillTOML {
  static let rootKeys: Set<String> = [
    "name", "touch", "order", "scoring", "time_limit", "start", "track", "enter_margin", "exit_margin", "min_dwell",
    "target",
  ]

  /// The most points a target may give.
  public static let maxPoints = 1_000_000.0

  /// Reads a drill file. - Throws: `InputError` naming the file and the key.
  public static func read(from url: URL) throws -> Drill {
    try parse(TOMLDocument(contentsOf: url))
  }

  /// Parses drill TOML text; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws -> Drill {
    try parse(TOMLDocument(text: text, file: file))
  }

  static func parse(_ doc: TOMLDocument) throws -> Drill {
    let root = doc.rootView
    for key in root.keys where !rootKeys.contains(key) {
      throw root.fail(key, "unknown key; expected \(rootKeys.sorted().joined(separator: ", "))")
    }
    let touch = try ZonesTOML.strings(root, "touch") ?? ["hands"]
    guard !touch.isEmpty else { throw root.fail("touch", "must name ball, hands or keypoints") }
    let triggers: [Zone.Trigger] = touch.flatMap { name -> [Zone.Trigger] in
      name == "hands" ? [.role(.leftWrist), .role(.rightWrist)] : [ZonesTOML.trigger(name)]
    }
    let orderName = try root.string("order") ?? "any"
    guard let order = Drill.Order(rawValue: orderName) else {
      throw root.fail("order", "'\(orderName)' is not an order; expected any or sequence")
    }
    let scoringName = try root.string("scoring") ?? "hits"
    guard let scoring = Drill.Scoring(rawValue: scoringName) else {
      throw root.fail("scoring", "'\(scoringName)' is not a scoring; expected hits or targets")
    }
    let timeLimit = try root.number("time_limit")
    if let timeLimit, timeLimit <= 0 { throw root.fail("time_limit", "must be a positive number of seconds, got \(timeLimit)") }
    let defaults = try ZonesTOML.ZoneDefaults(root)
    let tables = try ZonesTOML.tables(root, "target", required: true)
    var targets: [Zone] = [], points: [Double] = []
    for t in tables {
      targets.append(try ZonesTOML.zone(t, defaults: defaults, triggers: triggers, extraKeys: ["points"]))
      let value = try t.number("points") ?? 1
      // A drill's points are counts a person adds up; beyond a million a score stops being one.
      guard value.isFinite, value >= 0, value <= maxPoints else {
        throw t.fail("points", "must be a number from 0 to \(Int(maxPoints)), got \(value)")
      }
      points.append(value)
    }
    try ZonesTOML.checkUniqueNames(targets.map(\.name), root: root, key: "target")
    return Drill(
      name: try root.string("name") ?? "drill", targets: targets, points: points, order: order, scoring: scoring,
      start: try root.number("start"), timeLimit: timeLimit, track: try root.string("track"))
  }
}
