import MatchSceneCore

/// Scores a recording against a `Drill`: the targets' `zone_enter` events (the same `ZoneDetector`, so
/// a drill hit is exactly a zone entry), one touch per target while anything of the touching set is in
/// it (two wrists entering together are one touch), kept within the time window and the order, then
/// scored.
///
/// The ball touches a target when it bounces in it: given the match's bounce events, a venue target
/// the ball triggers is hit by each bounce whose position lies in it (the ball's centre at contact,
/// a radius above the surface: make ball targets reach that high), not by the ball flying through it — a ball returned low over the end of
/// the table would otherwise "land" in a deep target. Without bounce events (no table, no analysis)
/// the ball's zone entries count.
public enum DrillScorer {
  /// The drill's result on `motion` (world coordinates; `venue` maps it to the venue frame).
  /// - Parameter events: the match's events (world frame), whose `bounce` events are the ball's
  ///   touches; none: the ball's zone entries.
  public static func score(
    _ drill: Drill, motion: MotionModel, venue: VenueFrame, events matchEvents: [MatchEvent] = [], bodySmoothing: Double = 0.1
  ) -> DrillResult {
    let bounces = matchEvents.filter { $0.type == .bounce }
    var zones = drill.targets
    if !bounces.isEmpty {
      for i in zones.indices where zones[i].attachment == .venue { zones[i].triggers.removeAll { $0 == .ball } }
    }
    var events = ZoneDetector(zones: zones, bodySmoothing: bodySmoothing).events(in: motion, venue: venue)
      .filter { drill.track == nil || $0.track == drill.track || $0.joint == "ball" }
    if !bounces.isEmpty {
      events = (events + bounceTouches(drill, bounces: bounces, venue: venue)).sorted { $0.frame < $1.frame }
    }
    return score(drill, zoneEvents: events, recording: motion.frames.map { motion.time($0.lowerBound)...motion.time($0.upperBound) })
  }

  /// A `zone_enter` and `zone_exit` for each bounce inside a venue target the ball triggers (at least
  /// its `enterMargin` inside: a bounce is placed to millimetres, and a tolerance would count a bounce
  /// on the line between two targets in both).
  static func bounceTouches(_ drill: Drill, bounces: [MatchEvent], venue: VenueFrame) -> [MatchEvent] {
    var out: [MatchEvent] = []
    for b in bounces {
      guard let p = b.position else { continue }
      let inVenue = venue.venueFromWorld.apply(p)
      for target in drill.targets where target.attachment == .venue && target.triggers.contains(.ball) {
        guard target.signedDistance(inVenue) <= -target.enterMargin else { continue }
        for kind in [MatchEvent.Kind.zoneEnter, .zoneExit] {
          var e = MatchEvent(type: kind, frame: b.frame, time: b.time, track: "ball", position: p, speed: b.speed)
          e.zone = target.name
          e.joint = "ball"
          out.append(e)
        }
      }
    }
    return out
  }

  /// The drill's result from its targets' zone events (sorted by frame).
  /// - Parameter recording: the recording's time span (the window's default start and end).
  public static func score(_ drill: Drill, zoneEvents: [MatchEvent], recording: ClosedRange<Double>?) -> DrillResult {
    let start = drill.start ?? recording?.lowerBound ?? 0
    let end = drill.timeLimit.map { start + $0 } ?? recording?.upperBound ?? .infinity
    let index = Dictionary(drill.targets.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    var insideCount = Array(repeating: 0, count: drill.targets.count)
    var counts = Array(repeating: 0, count: drill.targets.count)
    var scored = Array(repeating: false, count: drill.targets.count)
    var next = 0
    var hits: [DrillHit] = []
    for e in zoneEvents {
      guard let zone = e.zone, let t = index[zone] else { continue }
      if e.type == .zoneExit {
        insideCount[t] = max(0, insideCount[t] - 1)
        continue
      }
      guard e.type == .zoneEnter else { continue }
      insideCount[t] += 1
      guard insideCount[t] == 1, e.time >= start - 1e-9, e.time <= end + 1e-9 else { continue }
      if drill.order == .sequence {
        guard t == next else { continue }
        next = (next + 1) % drill.targets.count
      }
      var points = drill.points[t]
      if drill.scoring == .targets {
        if scored[t] { points = 0 }
        scored[t] = true
      }
      counts[t] += 1
      hits.append(DrillHit(target: zone, frame: e.frame, time: e.time, track: e.track ?? "", joint: e.joint ?? "", points: points))
    }
    return DrillResult(
      drill: drill.name, score: hits.reduce(0) { $0 + $1.points },
      targets: drill.targets.indices.map { .init(name: drill.targets[$0].name, hits: counts[$0]) }, hits: hits,
      start: start, end: end)
  }
}
