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
  /// Each later session's technique against the baseline's by SPM with the family-wise error controlled
  /// over all angles and stroke kinds (`CurveSPM`): what the summary and compare.html report.
  public var spm: [CurveSPM]
  /// With three sessions or more: the headline measures per session, oldest first, with their trends.
  public var trends: [SessionTrend]
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
    var spm: [CurveSPM] = []
    if let base = sessions.first {
      // The permutation tests, one per later session, on all cores (nothing in them throws).
      spm = (try? parallelMap(Array(sessions.dropFirst())) { CurveSPM(base, $0) }) ?? []
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
        add("distance in play", base.inPlay.distanceInPlay, s.inPlay.distanceInPlay, "m")
        add("distance per rally in play", base.inPlay.meanDistancePerRally, s.inPlay.meanDistancePerRally, "m")
        add("median distance behind the end line in rallies", base.inPlay.medianBehindEndLine, s.inPlay.medianBehindEndLine, "m")
        add("lateral spread in rallies (IQR of y)", base.inPlay.lateralSpread, s.inPlay.lateralSpread, "m")
        add("own shots in rallies", Double(base.ball.hits), Double(s.ball.hits), "")
        add("median speed of own shots", base.ball.medianSpeed, s.ball.medianSpeed, "m/s")
        add("own shots landing on the opponent's half", base.ball.landedShare.map { $0 * 100 }, s.ball.landedShare.map { $0 * 100 }, "%")
        for kind in PlayerBall.errorKinds {
          add("errors: \(kind)", base.ball.errors[kind].map(Double.init), s.ball.errors[kind].map(Double.init), "")
        }
        for c in s.consistency {
          guard let b = base.consistency.first(where: { $0.strokeKind == c.strokeKind }) else { continue }
          add("\(c.strokeKind): median SD of the angles at contact", b.medianAngleSD, c.medianAngleSD, "°")
          add("\(c.strokeKind): SD of contact height", b.contactHeightSD, c.contactHeightSD, "m")
          add("\(c.strokeKind): SD of racket-hand speed at contact", b.handSpeedSD, c.handSpeedSD, "m/s")
          add("\(c.strokeKind): median form score", b.formScoreMedian, c.formScoreMedian, "")
          add(
            "\(c.strokeKind): form scores' interquartile range",
            b.formScoreUpperQuartile.flatMap { u in b.formScoreLowerQuartile.map { u - $0 } },
            c.formScoreUpperQuartile.flatMap { u in c.formScoreLowerQuartile.map { u - $0 } }, "")
        }
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
    self.spm = spm
    trends = sessions.count >= 3 ? Self.trends(sessions) : []
    var plots = ["movement-distance", "movement-in-play", "ball-speeds", "ball-errors", "score"]
    plots += sessions.indices.map { "heatmap-\($0 + 1)" }
    plots += ["bounces-negative_x", "bounces-positive_x"]
    let kinds = Set(sessions.flatMap { s in s.technique.flatMap { kind, angles in angles.keys.map { "\(kind)/\($0)" } } })
    plots += kinds.sorted().map { "technique-\($0.replacingOccurrences(of: "/", with: "-"))" }
    self.plots = plots
  }

  /// Whether nothing differs: no figure changed and no technique cluster beyond chance (`CurveSPM`).
  public var noDifferences: Bool { differences.isEmpty && spm.allSatisfy { $0.clusters.isEmpty } }

  /// A few lines for the terminal.
  public var summary: String {
    var lines: [String] = []
    for s in sessions {
      lines.append(
        "session \(s.session) \(s.date) \(s.name), \(s.track)\(s.player.map { " (\($0))" } ?? ""): "
          + String(format: "%.0f m covered in %.0f s seen", s.distanceCovered, s.secondsSeen)
          + String(format: " (%.0f m in %d rallies)", s.inPlay.distanceInPlay, s.inPlay.distancePerRally.count)
          + ", \(s.ball.hits) own shots in rallies" + (s.ball.medianSpeed.map { String(format: " (%.1f m/s median)", $0) } ?? "")
          + ", \(s.ball.landings.count) on the opponent's half, \(s.ball.errorCount) errors"
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
    if !trends.isEmpty { lines.append(contentsOf: trendTable) }
    for result in spm {
      lines.append(Self.spmHeader(result, baseline: sessions[0].session))
      for c in result.clusters {
        let curve = technique.first { $0.session == result.session && $0.strokeKind == c.strokeKind && $0.angle == c.angle }
        lines.append(
          "session \(result.session) vs \(result.baseline): \(c.strokeKind) \(c.angle) "
            + String(format: "%+.1f° (peak %+.1f°)", c.meanDifference, c.peakDifference)
            + " over \(c.fromPercent)–\(c.toPercent) % of the stroke (\(c.phases.joined(separator: ", ")))"
            + String(format: ", p %@, d %.1f, t %+.1f", Self.pText(c.p, permutations: result.permutations), c.effectSize, c.peakT)
            + " (\(c.strokesA) vs \(c.strokesB) strokes)"
            + (curve.map { String(format: "; RMSE %.1f°", $0.comparison.rmse) } ?? ""))
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension SessionComparison {
  /// The trend table: a row per measure, a column per session (oldest first), then the slope per
  /// session with its 95 % interval, `*` when it excludes zero.
  var trendTable: [String] {
    guard !trends.isEmpty else { return [] }
    func label(_ t: SessionTrend) -> String { t.measure + (t.units.isEmpty ? "" : " (\(t.units))") }
    let ids = Array(Set(trends.flatMap { $0.series.map(\.session) }))
    let order = trends.flatMap(\.series).reduce(into: [Int64: String]()) { $0[$1.session] = $1.date }
    let columns = ids.sorted { (order[$0]!, $0) < (order[$1]!, $1) }
    let width = (trends.map { label($0).count }.max() ?? 0) + 2
    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    var lines = [
      "trend over \(columns.count) sessions (oldest first):",
      pad("", width) + columns.map { pad("\($0) \(order[$0]!)", 16) }.joined() + "slope/session (95 % CI)",
    ]
    for t in trends {
      let values = columns.map { id in pad(t.series.first { $0.session == id }.map { String(format: "%.2f", $0.value) } ?? "–", 16) }
      let slope = t.slope.map { b in
        String(format: "%+.3f (%+.3f … %+.3f)", b, t.slopeLow ?? .nan, t.slopeHigh ?? .nan) + (t.significant ? " *" : "")
      } ?? "–"
      lines.append(pad(label(t), width) + values.joined() + slope)
    }
    lines.append("* the slope's 95 % interval excludes zero")
    return lines
  }

  /// `technique: 42 curves, threshold |t| > 4.12 (family-wise α 0.05, 1000 permutations): 2 clusters`.
  static func spmHeader(_ r: CurveSPM, baseline: Int64) -> String {
    guard let threshold = r.threshold else {
      return "session \(r.session) vs \(baseline): technique not compared (fewer than 2 strokes of a kind in a session)"
    }
    let clusters = r.clusters.isEmpty ? "no differences beyond chance" : "\(r.clusters.count) cluster\(r.clusters.count == 1 ? "" : "s")"
    return "session \(r.session) vs \(baseline): technique, \(r.curvesTested) curves by SPM{t}, "
      + String(format: "threshold |t| > %.2f", threshold)
      + " (family-wise α \(r.alpha) over all angles and stroke kinds, \(r.permutations) permutations): \(clusters)"
  }

  /// `≤ 0.001` for the smallest p a permutation test of 1000 can give, else 3 decimals.
  static func pText(_ p: Double, permutations: Int) -> String {
    p <= 1 / Double(permutations) ? String(format: "≤ %.3f", 1 / Double(permutations)) : String(format: "%.3f", p)
  }
}

extension SessionMetrics {
  /// Metres per minute seen.
  var perMinute: Double? { secondsSeen > 0 ? distanceCovered / secondsSeen * 60 : nil }
}
