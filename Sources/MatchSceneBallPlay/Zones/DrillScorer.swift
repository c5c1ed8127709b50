import MatchSceneCore

/// Scores a recording against a `Drill`: the targets' `zone_enter` events (the same `ZoneDetector`, so
/// a drill hit is exactly a zone entry), one touch per target while anything of the touching set is in
/// it (two wrists entering together are one touch), kept within the time window and the order, then
/// scored.
public enum DrillScorer {
  /// The drill's result on `motion` (world coordinates; `venue` maps it to the venue frame).
  public static func score(_ drill: Drill, motion: MotionModel, venue: VenueFrame, bodySmoothing: Double = 0.1) -> DrillResult {
    let events = ZoneDetector(zones: drill.targets, bodySmoothing: bodySmoothing).events(in: motion, venue: venue)
      .filter { drill.track == nil || $0.track == drill.track || $0.joint == "ball" }
    return score(drill, zoneEvents: events, recording: motion.frames.map { motion.time($0.lowerBound)...motion.time($0.upperBound) })
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
