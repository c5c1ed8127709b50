import Foundation
import MatchSceneCore

/// `compare`: one player over several sessions, each measured (`SessionMetrics`) and compared with the
/// first (the oldest, or A of `compare A B`).
public struct SessionComparison: Sendable, Codable {
  /// A figure that changed between the baseline and a later session.
  public struct Difference: Sendable, Codable, Equatable {
    public var session: Int64
    public var what: String
    public var baseline: Double
    public var value: Double
    public var units: String
  }

  /// The technique of one stroke kind and angle, a later session against the baseline.
  public struct TechniqueDifference: Sendable, Codable, Equatable {
    public var session: Int64
    public var strokeKind: String
    public var angle: String
    public var comparison: CurveComparison
  }

  public var sessions: [SessionMetrics]
  public var differences: [Difference]
  public var technique: [TechniqueDifference]
  /// Ids of the plots `compare.html` draws (checked by the page test).
  public var plots: [String]

  /// Measures every `(session, track)` and compares each with the first.
  public init(_ entries: [(session: StoredSession, track: String)]) throws {
    self.init(try entries.map { try SessionMetrics($0.session, track: $0.track) })
  }

  /// Compares each session's measures with the first's.
  public init(_ sessions: [SessionMetrics]) {
    self.sessions = sessions
    var differences: [Difference] = []
    var technique: [TechniqueDifference] = []
    if let base = sessions.first {
      for s in sessions.dropFirst() {
        func add(_ what: String, _ a: Double?, _ b: Double?, _ units: String) {
          guard let a, let b, a != b else { return }
          differences.append(Difference(session: s.session, what: what, baseline: a, value: b, units: units))
        }
        add("distance covered", base.distanceCovered, s.distanceCovered, "m")
        add("distance per minute seen", base.perMinute, s.perMinute, "m/min")
        add("mean shot speed", base.meanShotSpeed, s.meanShotSpeed, "m/s")
        add("fastest shot", base.maxShotSpeed, s.maxShotSpeed, "m/s")
        add("rallies", Double(base.rallies), Double(s.rallies), "")
        add("mean rally length", base.meanRallySeconds, s.meanRallySeconds, "s")
        add("mean hits per rally", base.meanHitsPerRally, s.meanHitsPerRally, "")
        add("points won", base.pointsWon.map(Double.init), s.pointsWon.map(Double.init), "")
        add("points lost", base.pointsLost.map(Double.init), s.pointsLost.map(Double.init), "")
        let heatDifference = zip(base.heatmap, s.heatmap).reduce(0) { $0 + abs($1.0 - $1.1) } / 2
        add("court positions (share of time elsewhere)", 0, heatDifference, "")
        add("table bounces", Double(base.bounces.count), Double(s.bounces.count), "")
        for (kind, angles) in s.technique.sorted(by: { $0.key < $1.key }) {
          for (angle, curves) in angles.sorted(by: { $0.key < $1.key }) {
            guard let reference = base.technique[kind]?[angle] else { continue }
            technique.append(
              TechniqueDifference(session: s.session, strokeKind: kind, angle: angle, comparison: CurveComparison(reference, curves)))
          }
        }
      }
    }
    self.differences = differences
    self.technique = technique
    var plots = ["movement-distance", "ball-speeds", "score"]
    plots += sessions.indices.map { "heatmap-\($0 + 1)" }
    plots += ["bounces-negative_x", "bounces-positive_x"]
    let kinds = Set(sessions.flatMap { s in s.technique.flatMap { kind, angles in angles.keys.map { "\(kind)/\($0)" } } })
    plots += kinds.sorted().map { "technique-\($0.replacingOccurrences(of: "/", with: "-"))" }
    self.plots = plots
  }

  /// Whether nothing differs: no figure changed and no technique stretch beyond the noise.
  public var noDifferences: Bool { differences.isEmpty && technique.allSatisfy { $0.comparison.stretches.isEmpty } }

  /// A few lines for the terminal.
  public var summary: String {
    var lines: [String] = []
    for s in sessions {
      lines.append(
        "session \(s.session) \(s.date) \(s.name), \(s.track)\(s.player.map { " (\($0))" } ?? ""): "
          + String(format: "%.0f m covered in %.0f s seen", s.distanceCovered, s.secondsSeen)
          + (s.meanShotSpeed.map { String(format: ", shots %.1f m/s mean", $0) } ?? "")
          + ", \(s.rallies) rallies" + (s.pointsWon.map { ", \($0) points won" } ?? ""))
    }
    if noDifferences {
      lines.append("no differences")
      return lines.joined(separator: "\n")
    }
    for d in differences {
      lines.append(
        "session \(d.session) vs \(sessions[0].session): \(d.what) "
          + String(format: "%.2f → %.2f %@ (%+.2f)", d.baseline, d.value, d.units, d.value - d.baseline))
    }
    for t in technique {
      for s in t.comparison.stretches {
        lines.append(
          "session \(t.session) vs \(sessions[0].session): \(t.strokeKind) \(t.angle) differs by "
            + String(format: "%+.1f° (peak %+.1f°)", s.meanDifference, s.peakDifference)
            + " over \(s.fromPercent)–\(s.toPercent) % of the stroke (\(s.phase))"
            + String(format: "; RMSE %.1f°, DTW %.1f°", t.comparison.rmse, t.comparison.dtw)
            + (t.comparison.cmc.map { String(format: ", CMC %.3f", $0) } ?? ""))
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension SessionMetrics {
  /// Metres per minute seen.
  var perMinute: Double? { secondsSeen > 0 ? distanceCovered / secondsSeen * 60 : nil }
}
