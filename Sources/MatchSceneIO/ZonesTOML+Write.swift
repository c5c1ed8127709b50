import MatchSceneCore

extension ZonesTOML {
  /// `zones.toml` text for `zones`, which `parse` reads back to the same zones.
  public static func text(_ zones: [Zone]) -> String {
    zones.map { "[[zone]]\n" + table($0, triggers: true) }.joined(separator: "\n")
  }

  /// A TOML basic string.
  static func quoted(_ s: String) -> String {
    "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// The keys of one zone table (without its header).
  static func table(_ zone: Zone, triggers: Bool) -> String {
    func list(_ v: SIMD3<Double>) -> String { "[\(v.x), \(v.y), \(v.z)]" }
    var lines = ["name = \(quoted(zone.name))"]
    switch zone.shape {
    case .box(let size): lines += ["shape = \"box\"", "size = \(list(size))"]
    case .sphere(let radius): lines += ["shape = \"sphere\"", "radius = \(radius)"]
    case .cylinder(let radius, let height): lines += ["shape = \"cylinder\"", "radius = \(radius)", "height = \(height)"]
    }
    lines.append("center = \(list(zone.center))")
    if case .body(let origin, let track) = zone.attachment {
      lines += ["frame = \"body\"", "origin = \"\(origin.rawValue)\""]
      if let track { lines.append("track = \(quoted(track))") }
    }
    if triggers { lines.append("triggers = [\(zone.triggers.map { quoted($0.description) }.joined(separator: ", "))]") }
    lines += ["enter_margin = \(zone.enterMargin)", "exit_margin = \(zone.exitMargin)", "min_dwell = \(zone.minDwell)"]
    return lines.joined(separator: "\n") + "\n"
  }
}

extension DrillTOML {
  /// `drill.toml` text for `drill`, which `parse` reads back to the same drill. The touch is the first
  /// target's triggers (a drill's targets share them).
  public static func text(_ drill: Drill) -> String {
    let triggers = drill.targets.first?.triggers ?? []
    var lines = [
      "name = \(ZonesTOML.quoted(drill.name))", "touch = [\(triggers.map { ZonesTOML.quoted($0.description) }.joined(separator: ", "))]",
      "order = \"\(drill.order.rawValue)\"", "scoring = \"\(drill.scoring.rawValue)\"",
    ]
    if let start = drill.start { lines.append("start = \(start)") }
    if let limit = drill.timeLimit { lines.append("time_limit = \(limit)") }
    if let track = drill.track { lines.append("track = \(ZonesTOML.quoted(track))") }
    var text = lines.joined(separator: "\n") + "\n"
    for (zone, points) in zip(drill.targets, drill.points) {
      text += "\n[[target]]\n" + ZonesTOML.table(zone, triggers: false) + "points = \(points)\n"
    }
    return text
  }
}
