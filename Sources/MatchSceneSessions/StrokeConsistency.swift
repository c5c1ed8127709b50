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

  /// The median over angles of `angleSDAtContact`: one figure for the whole body.
  public var medianAngleSD: Double? { angleSDAtContact.isEmpty ? nil : median(Array(angleSDAtContact.values)) }

  /// Sample standard deviation (n − 1); nil under 2 values.
  static func sd(_ v: [Double]) -> Double? {
    guard v.count >= 2 else { return nil }
    let m = v.reduce(0, +) / Double(v.count)
    return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot()
  }

  /// Per stroke kind, from `curves` (the kind's angles, each stroke's value at the contact node) and the
  /// strokes' contact heights and hand speeds.
  static func of(
    _ technique: [String: [String: NormalisedCurves]], strokes: [FormFiles.Stroke]
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
      return StrokeConsistency(
        strokeKind: kind, strokes: count, angleSDAtContact: sds,
        contactHeightMedian: heights.isEmpty ? nil : median(heights), contactHeightSD: sd(heights),
        handSpeedMedian: speeds.isEmpty ? nil : median(speeds), handSpeedSD: sd(speeds))
    }
  }
}
