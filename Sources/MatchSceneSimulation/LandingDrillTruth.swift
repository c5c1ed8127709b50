import MatchSceneBallPlay
import MatchSceneCore

/// The truth of a ball drill on a simulated match: each true table bounce whose point lies within a
/// target's footprint (its x–y extent, venue frame) is a hit at the bounce's time, scored by the drill's
/// rules. The simulator's world is the venue frame.
public enum LandingDrillTruth {
  /// The drill's result from `events` (the simulator's truth events).
  /// - Parameter recording: the match's time span.
  public static func result(_ drill: Drill, events: [MatchEvent], recording: ClosedRange<Double>) -> DrillResult {
    var zoneEvents: [MatchEvent] = []
    for e in events where e.type == .bounce && e.surface == .table {
      guard let p = e.position else { continue }
      for target in drill.targets {
        guard case .venue = target.attachment, footprintContains(target, x: p.x, y: p.y) else { continue }
        for kind in [MatchEvent.Kind.zoneEnter, .zoneExit] {
          var z = MatchEvent(type: kind, frame: e.frame, time: e.time, track: "ball")
          z.zone = target.name
          z.joint = "ball"
          zoneEvents.append(z)
        }
      }
    }
    return DrillScorer.score(drill, zoneEvents: zoneEvents, recording: recording)
  }

  /// Whether (x, y) lies within the zone's horizontal extent.
  static func footprintContains(_ zone: Zone, x: Double, y: Double) -> Bool {
    let dx = x - zone.center.x, dy = y - zone.center.y
    switch zone.shape {
    case .box(let size): return abs(dx) <= size.x / 2 && abs(dy) <= size.y / 2
    case .sphere(let r), .cylinder(let r, _): return dx * dx + dy * dy <= r * r
    }
  }
}
