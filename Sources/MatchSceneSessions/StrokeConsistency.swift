import Foundation
import MatchSceneCore

/// How alike one player's strokes of a kind are within a session: the spread across strokes at contact
/// (standard deviations, n − 1), a player's repeatability rather than their mean technique.
public struct StrokeConsistency: Sendable, Codable, Equatable {
  public var strokeKind: String
  public var strokes: Int
  /// Angle → SD of the angle at contact across the strokes, degrees.
  public var angleSDAtContact: [String: Double]
  /// Median and SD of the racket hand's height at contact, metres (from strokes.json).
  public var contactHeightMedian: Double?
  public var contactHeightSD: Double?
  /// Median and SD of the racket hand's speed at contact, m/s (from strokes.json).
  public var handSpeedMedian: Double?
  public var handSpeedSD: Double?
  /// The strokes' form scores (`form.json`, 0–100, against the reference that run used: the player's own
  /// median stroke unless `form --reference` gave one): median and quartiles; nil without `form.json`.
  public var formScoreMedian: Double?
  public var formScoreLowerQuartile: Double?
  public var formScoreUpperQuartile: Double?

  /// The median over angles of `angleSDAtContact`: one figure for the whole body.
  public var medianAngleSD: Double? { angleSDAtContact.isEmpty ? nil : median(Array(angleSDAtContact.values)) }

  /// The `q` quantile of ascending `sorted` by linear interpolation between order statistics (Hyndman &
  /// Fan 1996, definition 7, as R's and NumPy's default); nil when empty.
  static func quantile(_ sorted: [Double], _ q: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let h = Double(sorted.count - 1) * q
    let lo = Int(h.rounded(.down)), hi = min(sorted.count - 1, lo + 1)
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }

  /// Sample standard deviation (n − 1); nil under 2 values.
  static func sd(_ v: [Double]) -> Double? {
    guard v.count >= 2 else { return nil }
    let m = v.reduce(0, +) / Double(v.count)
    return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot()
  }

  /// Per stroke kind, from `curves` (the kind's angles, each stroke's value at the contact node) and the
  /// strokes' contact heights and hand speeds.
  static func of(
    _ technique: [String: [String: NormalisedCurves]], strokes: [FormFiles.Stroke], scores: [String: [Double]] = [:]
  ) -> [StrokeConsistency] {
    technique.keys.sorted().map { kind in
      var sds: [String: Double] = [:]
      var count = 0
      for (angle, c) in technique[kind]! {
        let node = min(NormalisedCurves.points - 1, max(0, Int(c.contactPercent.rounded())))
        if let s = sd(c.curves.map { $0[node] }) { sds[angle] = s }
        count = max(count, c.curves.count)
      }
      let ofKind = strokes.filter { $0.kind == kind }
      let heights = ofKind.compactMap(\.contactHeight).filter(\.isFinite)
      let speeds = ofKind.compactMap(\.handSpeedAtContact).filter(\.isFinite)
      let formScores = (scores[kind] ?? []).sorted()
      return StrokeConsistency(
        strokeKind: kind, strokes: count, angleSDAtContact: sds,
        contactHeightMedian: heights.isEmpty ? nil : median(heights), contactHeightSD: sd(heights),
        handSpeedMedian: speeds.isEmpty ? nil : median(speeds), handSpeedSD: sd(speeds),
        formScoreMedian: formScores.isEmpty ? nil : median(formScores),
        formScoreLowerQuartile: quantile(formScores, 0.25), formScoreUpperQuartile: quantile(formScores, 0.75))
    }
  }
}
