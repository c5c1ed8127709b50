import Foundation
import MatchSceneCore
internal import TOMLKit

/// `zones.toml`: the zones whose entering and leaving become `zone_enter` / `zone_exit` events.
///
/// ```toml
/// # Defaults for every zone (each zone may set its own).
/// enter_margin = 0.03   # metres inside the surface to enter
/// exit_margin = 0.03    # metres outside it to leave
/// min_dwell = 0.1       # seconds over which an entry or exit must hold on average
///
/// [[zone]]
/// name = "snare"
/// shape = "sphere"              # box | sphere | cylinder
/// radius = 0.12                 # sphere and cylinder
/// # size = [0.3, 0.2, 0.1]      # box: edge lengths along x, y, z
/// # height = 0.4                # cylinder: along z (up)
/// center = [0.2, 0.4, 0.0]      # in the zone's frame
/// frame = "body"                # venue (default) | body: x right, y forward, z up
/// origin = "chest"              # body frames: hips (default) | chest
/// track = "P1"                  # body frames: only this person (default: every person)
/// triggers = ["left_wrist", "right_wrist"]   # keypoint names, roles (JointRole) or "ball"
/// ```
///
/// Unknown keys are errors (a misspelt `exit_margin` would silently change the behaviour).
public enum ZonesTOML {
  /// Keys of a `[[zone]]` table.
  public static let zoneKeys: Set<String> = [
    "name", "shape", "radius", "size", "height", "center", "frame", "origin", "track", "triggers", "enter_margin",
    "exit_margin", "min_dwell",
  ]
  static let defaultKeys: Set<String> = ["enter_margin", "exit_margin", "min_dwell"]

  /// Reads a zones file. - Throws: `InputError` naming the file and the key (`zone[2].radius`).
  public static func read(from url: URL) throws -> [Zone] {
    try parse(TOMLDocument(contentsOf: url))
  }

  /// Parses zones TOML text; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws -> [Zone] {
    try parse(TOMLDocument(text: text, file: file))
  }

  static func parse(_ doc: TOMLDocument) throws -> [Zone] {
    let root = doc.rootView
    for key in root.keys where !defaultKeys.contains(key) && key != "zone" {
      throw root.fail(key, "unknown key; expected \(defaultKeys.sorted().joined(separator: ", ")) or [[zone]] tables")
    }
    let defaults = try ZoneDefaults(root)
    let zones = try tables(root, "zone", required: true).map { try zone($0, defaults: defaults) }
    try checkUniqueNames(zones.map(\.name), root: root, key: "zone")
    return zones
  }

  /// Margins and dwell that a zone table does not set.
  struct ZoneDefaults {
    var enterMargin = 0.03, exitMargin = 0.03, minDwell = 0.1
    init() {}
    init(_ t: TOMLTableView) throws {
      enterMargin = try nonNegative(t, "enter_margin") ?? enterMargin
      exitMargin = try nonNegative(t, "exit_margin") ?? exitMargin
      minDwell = try nonNegative(t, "min_dwell") ?? minDwell
    }
  }

  /// The tables of an array of tables `[[key]]`, each viewed as `key[i]` (1-based).
  static func tables(_ t: TOMLTableView, _ key: String, required: Bool) throws -> [TOMLTableView] {
    guard let value = t.table[key] else {
      if required { throw t.fail(key, "missing: expected at least one [[\(key)]] table") }
      return []
    }
    guard let array = value.array else { throw t.fail(key, "expected [[\(key)]] tables") }
    return try array.enumerated().map { i, element in
      guard let table = element.table else { throw t.fail("\(key)[\(i + 1)]", "expected a table") }
      return TOMLTableView(file: t.file, path: t.keyPath("\(key)[\(i + 1)]"), table: table)
    }
  }

  static func nonNegative(_ t: TOMLTableView, _ key: String) throws -> Double? {
    guard let x = try t.number(key) else { return nil }
    guard x >= 0 else { throw t.fail(key, "must not be negative, got \(x)") }
    return x
  }

  static func positive(_ t: TOMLTableView, _ key: String, for shape: String) throws -> Double {
    guard let x = try t.number(key) else { throw t.fail(key, "missing: a \(shape) needs \(key) (metres)") }
    guard x > 0 else { throw t.fail(key, "must be positive, got \(x)") }
    return x
  }

  static func strings(_ t: TOMLTableView, _ key: String) throws -> [String]? {
    guard let value = t.table[key] else { return nil }
    if let s = value.string { return [s] }
    guard let array = value.array else { throw t.fail(key, "expected a string or an array of strings") }
    return try array.enumerated().map { i, element in
      guard let s = element.string else { throw t.fail(key, "element \(i + 1) is not a string") }
      return s
    }
  }

  static func checkUniqueNames(_ names: [String], root: TOMLTableView, key: String) throws {
    var seen: Set<String> = []
    for (i, name) in names.enumerated() where !seen.insert(name).inserted {
      throw root.fail("\(key)[\(i + 1)].name", "'\(name)' names an earlier \(key) too; names must be unique")
    }
  }

  /// A trigger from its spelling: `ball`, a role (`left_wrist`), or any other keypoint name.
  public static func trigger(_ name: String) -> Zone.Trigger {
    if name == "ball" { return .ball }
    if let role = JointRole(rawValue: name) { return .role(role) }
    return .keypoint(name)
  }

  /// One `[[zone]]` (or a drill's `[[target]]`) table; `triggers` may come from elsewhere (a drill's
  /// `touch`), in which case the table must not set them.
  static func zone(_ t: TOMLTableView, defaults: ZoneDefaults, triggers given: [Zone.Trigger]? = nil, extraKeys: Set<String> = []) throws -> Zone {
    for key in t.keys where !zoneKeys.contains(key) && !extraKeys.contains(key) {
      throw t.fail(key, "unknown key; expected \((zoneKeys.union(extraKeys)).sorted().joined(separator: ", "))")
    }
    let name = try t.required("name", t.string)
    let shapeName = try t.string("shape") ?? "box"
    let shape: Zone.Shape
    switch shapeName {
    case "sphere":
      shape = .sphere(radius: try positive(t, "radius", for: "sphere"))
    case "cylinder":
      shape = .cylinder(radius: try positive(t, "radius", for: "cylinder"), height: try positive(t, "height", for: "cylinder"))
    case "box":
      guard let size = try t.numbers("size", count: [3]) else { throw t.fail("size", "missing: a box needs size = [x, y, z] (metres)") }
      guard size.allSatisfy({ $0 > 0 }) else { throw t.fail("size", "edge lengths must be positive, got \(size)") }
      shape = .box(size: SIMD3(size[0], size[1], size[2]))
    default:
      throw t.fail("shape", "'\(shapeName)' is not a shape; expected box, sphere or cylinder")
    }
    let c = try t.numbers("center", count: [3]) ?? [0, 0, 0]
    let attachment: Zone.Attachment
    switch try t.string("frame") ?? "venue" {
    case "venue":
      for key in ["origin", "track"] where t.contains(key) { throw t.fail(key, "only for frame = \"body\"") }
      attachment = .venue
    case "body":
      let originName = try t.string("origin") ?? "hips"
      guard let origin = BodyFrame.Origin(rawValue: originName) else {
        throw t.fail("origin", "'\(originName)' is not a body origin; expected hips or chest")
      }
      attachment = .body(origin: origin, track: try t.string("track"))
    case let other:
      throw t.fail("frame", "'\(other)' is not a frame; expected venue or body")
    }
    let triggers: [Zone.Trigger]
    if let given {
      if t.contains("triggers") { throw t.fail("triggers", "set by the drill's touch; not allowed on a target") }
      triggers = given
    } else {
      guard let names = try strings(t, "triggers"), !names.isEmpty else {
        throw t.fail("triggers", "missing: name what enters the zone, e.g. [\"left_wrist\", \"right_wrist\"] or [\"ball\"]")
      }
      triggers = names.map(trigger)
    }
    return Zone(
      name: name, shape: shape, center: SIMD3(c[0], c[1], c[2]), attachment: attachment, triggers: triggers,
      enterMargin: try nonNegative(t, "enter_margin") ?? defaults.enterMargin,
      exitMargin: try nonNegative(t, "exit_margin") ?? defaults.exitMargin,
      minDwell: try nonNegative(t, "min_dwell") ?? defaults.minDwell)
  }
}
