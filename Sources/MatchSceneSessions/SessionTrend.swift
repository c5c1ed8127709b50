import Foundation

/// One headline measure over a player's sessions, oldest first, with a straight-line trend: the
/// least-squares slope per session and its 95 % confidence interval (Student t with n − 2 degrees of
/// freedom), flagged only when the interval excludes zero.
public struct SessionTrend: Sendable, Codable, Equatable {
  public struct Point: Sendable, Codable, Equatable {
    public var session: Int64
    public var date: String
    public var value: Double
  }

  public var measure: String
  public var units: String
  public var series: [Point]
  /// Change per session (ordinary least squares on the session's position 0, 1, …); nil under 3 values.
  public var slope: Double?
  public var slopeLow: Double?
  public var slopeHigh: Double?
  /// Whether the 95 % interval of the slope excludes zero.
  public var significant: Bool

  public init(measure: String, units: String, series: [Point]) {
    self.measure = measure
    self.units = units
    self.series = series
    let n = series.count
    guard n >= 3 else {
      slope = nil
      slopeLow = nil
      slopeHigh = nil
      significant = false
      return
    }
    let xs = (0..<n).map(Double.init), ys = series.map(\.value)
    let mx = xs.reduce(0, +) / Double(n), my = ys.reduce(0, +) / Double(n)
    let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
    let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
    let b = sxy / sxx
    let residual = zip(xs, ys).reduce(0) { $0 + pow($1.1 - my - b * ($1.0 - mx), 2) }
    let se = (residual / Double(n - 2) / sxx).squareRoot()
    let half = Self.t975(degreesOfFreedom: n - 2) * se
    slope = b
    slopeLow = b - half
    slopeHigh = b + half
    significant = se > 0 ? (b - half > 0 || b + half < 0) : b != 0
  }

  /// The 97.5 % quantile of Student's t (two-sided 95 %): tabulated for 1–30 degrees of freedom, then
  /// the Cornish–Fisher expansion about the normal's 1.96 (Abramowitz & Stegun 26.7.5).
  static func t975(degreesOfFreedom v: Int) -> Double {
    let table = [
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
      2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]
    if v >= 1 && v <= table.count { return table[v - 1] }
    let z = 1.959964, n = Double(max(v, 1))
    return z + (pow(z, 3) + z) / (4 * n) + (5 * pow(z, 5) + 16 * pow(z, 3) + 3 * z) / (96 * n * n)
  }
}

extension SessionComparison {
  /// The headline measures per session, oldest first (by date, then id), each with its trend.
  static func trends(_ sessions: [SessionMetrics]) -> [SessionTrend] {
    let ordered = sessions.sorted { ($0.date, $0.session) < ($1.date, $1.session) }
    let measures = headlineMeasures(sessions)
    return measures.compactMap { name, units, value in
      let series = ordered.compactMap { m in value(m).flatMap { $0.isFinite ? SessionTrend.Point(session: m.session, date: m.date, value: $0) : nil } }
      return series.isEmpty ? nil : SessionTrend(measure: name, units: units, series: series)
    }
  }

  /// The headline measures a coach follows (name, units, value per session): movement and ball play in
  /// rallies, the score, and per stroke kind the consistency at contact and the median form score. The
  /// trend and the first table of compare.html list them.
  static func headlineMeasures(_ sessions: [SessionMetrics]) -> [(String, String, (SessionMetrics) -> Double?)] {
    var measures: [(String, String, (SessionMetrics) -> Double?)] = [
      ("distance per rally in play", "m", { $0.inPlay.meanDistancePerRally }),
      ("median distance behind the end line in rallies", "m", { $0.inPlay.medianBehindEndLine }),
      ("lateral spread in rallies (IQR of y)", "m", { $0.inPlay.lateralSpread }),
      ("median speed of own shots", "m/s", { $0.ball.medianSpeed }),
      ("own shots landing on the opponent's half", "%", { $0.ball.landedShare.map { $0 * 100 } }),
      ("errors per rally", "", { $0.rallies > 0 ? Double($0.ball.errorCount) / Double($0.rallies) : nil }),
      ("points won", "", { $0.pointsWon.map(Double.init) }),
    ]
    let kinds = Set(sessions.flatMap { $0.consistency.map(\.strokeKind) }).sorted()
    for kind in kinds {
      func of(_ m: SessionMetrics) -> StrokeConsistency? { m.consistency.first { $0.strokeKind == kind } }
      measures.append(("\(kind): median SD of the angles at contact", "°", { of($0)?.medianAngleSD }))
      measures.append(("\(kind): SD of contact height", "m", { of($0)?.contactHeightSD }))
      measures.append(("\(kind): SD of racket-hand speed at contact", "m/s", { of($0)?.handSpeedSD }))
      measures.append(("\(kind): median form score", "", { of($0)?.formScoreMedian }))
    }
    return measures
  }
}
