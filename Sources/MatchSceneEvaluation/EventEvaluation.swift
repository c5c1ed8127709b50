import MatchSceneBallPlay
import MatchSceneCore

/// How well detected events match the true ones: per type, precision and recall with a frame
/// tolerance (each true event matched at most once, nearest first), plus hitter accuracy and the
/// rally boundary offsets.
public struct EventEvaluation: Sendable, Codable {
  public struct TypeFigures: Sendable, Codable {
    public var truth: Int
    public var detected: Int
    public var matched: Int
    public var precision: Double
    public var recall: Double
    /// Frames of the true events no detection matched, and of the detections that matched none.
    public var missedFrames: [Int] = []
    public var falseFrames: [Int] = []
  }
  public var tolerance: Int
  public var types: [String: TypeFigures]
  /// The same figures counting only events while the ball is in play: within a true rally, from its
  /// start to its end (± `tolerance`), on both sides. Bounces of a dead ball rolling away after the
  /// point are not match events a coach looks for.
  public var inPlayTypes: [String: TypeFigures]
  /// Of matched hits, the share given to the right player (after mapping estimated ids to true ids).
  public var hitterAccuracy: Double
  /// Per true rally: |frame offset| of the detected start and end (nil when not found within ±`rallyTolerance` · 3).
  public var rallyStartOffsets: [Int?]
  public var rallyEndOffsets: [Int?]

  /// - Parameters:
  ///   - tolerance: frames within which a bounce/hit/net matches.
  ///   - trackMap: estimated track id → true track id (e.g. `TrackEvaluation.playerMatches`).
  ///   - visibleFrames: when given, true bounces, hits and net contacts are only counted at frames in
  ///     this set (e.g. where ≥ 2 cameras see the ball): no camera system can detect what none saw.
  public init(
    detected: [MatchEvent], truth allTruth: [MatchEvent], tolerance: Int = 2, rallyTolerance: Int = 10,
    trackMap: [String: String] = [:], visibleFrames: Set<Int>? = nil
  ) {
    self.tolerance = tolerance
    let truth = allTruth.filter { e in
      guard let visibleFrames, [.bounce, .hit, .net].contains(e.type) else { return true }
      return visibleFrames.contains(e.frame) || visibleFrames.contains(e.frame - 1) || visibleFrames.contains(e.frame + 1)
    }
    var hitsRight = 0, hitsMatched = 0
    func figures(_ truth: [MatchEvent], _ detected: [MatchEvent], countHitters: Bool) -> [String: TypeFigures] {
      var types: [String: TypeFigures] = [:]
      for kind in [MatchEvent.Kind.bounce, .hit, .net] {
        let t = truth.filter { $0.type == kind }, d = detected.filter { $0.type == kind }
        let pairs = Self.match(d, t, tolerance: tolerance)
        let matchedD = Set(pairs.map(\.0)), matchedT = Set(pairs.map(\.1))
        types[kind.rawValue] = TypeFigures(
          truth: t.count, detected: d.count, matched: pairs.count,
          precision: d.isEmpty ? 1 : Double(pairs.count) / Double(d.count),
          recall: t.isEmpty ? 1 : Double(pairs.count) / Double(t.count),
          missedFrames: t.indices.filter { !matchedT.contains($0) }.map { t[$0].frame }.sorted(),
          falseFrames: d.indices.filter { !matchedD.contains($0) }.map { d[$0].frame }.sorted())
        if kind == .hit, countHitters {
          for (i, j) in pairs {
            hitsMatched += 1
            let mapped = d[i].track.map { trackMap[$0] ?? $0 }
            if mapped == t[j].track { hitsRight += 1 }
          }
        }
      }
      return types
    }
    types = figures(truth, detected, countHitters: true)
    let windows = Rallies.ranges(allTruth, openUntil: Int.max - tolerance).map {
      ($0.lowerBound - tolerance)...($0.upperBound + tolerance)
    }
    func inPlay(_ e: MatchEvent) -> Bool { windows.contains { $0.contains(e.frame) } }
    inPlayTypes = figures(truth.filter(inPlay), detected.filter(inPlay), countHitters: false)
    hitterAccuracy = hitsMatched > 0 ? Double(hitsRight) / Double(hitsMatched) : 1
    func offsets(_ kind: MatchEvent.Kind) -> [Int?] {
      let d = detected.filter { $0.type == kind }
      return truth.filter { $0.type == kind }.map { t in
        d.map { abs($0.frame - t.frame) }.min().flatMap { $0 <= 3 * rallyTolerance ? $0 : nil }
      }
    }
    rallyStartOffsets = offsets(.rallyStart)
    rallyEndOffsets = offsets(.rallyEnd)
  }

  /// Greedy nearest matching within the tolerance: (detected index, true index) pairs.
  static func match(_ d: [MatchEvent], _ t: [MatchEvent], tolerance: Int) -> [(Int, Int)] {
    var candidates: [(Int, Int, Int)] = []
    for (i, a) in d.enumerated() {
      for (j, b) in t.enumerated() where abs(a.frame - b.frame) <= tolerance { candidates.append((abs(a.frame - b.frame), i, j)) }
    }
    candidates.sort { $0.0 < $1.0 }
    var usedD = Set<Int>(), usedT = Set<Int>(), pairs: [(Int, Int)] = []
    for (_, i, j) in candidates where !usedD.contains(i) && !usedT.contains(j) {
      usedD.insert(i)
      usedT.insert(j)
      pairs.append((i, j))
    }
    return pairs
  }

  public var summary: String {
    var lines: [String] = []
    for (name, f) in types.sorted(by: { $0.key < $1.key }) {
      lines.append(String(format: "%@: precision %.3f, recall %.3f (%d detected, %d true, ±%d frames)", name, f.precision, f.recall, f.detected, f.truth, tolerance))
      func frames(_ label: String, _ list: [Int]) {
        if !list.isEmpty { lines.append("  \(label): frames \(list.map(String.init).joined(separator: " "))") }
      }
      frames("missed", f.missedFrames)
      frames("false", f.falseFrames)
      if let p = inPlayTypes[name] {
        lines.append(String(format: "  in play: precision %.3f, recall %.3f (%d detected, %d true)", p.precision, p.recall, p.detected, p.truth))
      }
    }
    lines.append(String(format: "hitter right: %.1f%%", 100 * hitterAccuracy))
    func describe(_ o: [Int?]) -> String { o.map { $0.map(String.init) ?? "missed" }.joined(separator: " ") }
    lines.append("rally start offsets (frames): \(describe(rallyStartOffsets))")
    lines.append("rally end offsets (frames): \(describe(rallyEndOffsets))")
    return lines.joined(separator: "\n")
  }
}
