#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import MatchSceneCore

/// The table's heading, centre and height in a levelled plane (z up) from several independent
/// sources, each with its stated standard errors: the weighted least-squares estimate (each
/// measurement weighed by its inverse variance — Gauss–Markov; Bevington & Robinson, "Data Reduction
/// and Error Analysis", 3rd ed., §4.1), with every source's residual and share of the weight.
///
/// The heading is combined first (a weighted mean of the headings, modulo 180°: a table's ends look
/// alike); the centre then solves the linear constraints along and across that heading: a centre
/// estimate constrains both, a point on the net line (a contact with the net) only the coordinate
/// along.
struct VenueFusion: Sendable {
  struct Clue: Sendable {
    var source: String
    /// Radians from the levelled x axis to the long axis (modulo π) and its standard error.
    var heading: (value: Double, sigma: Double)? = nil
    /// The table's centre in the levelled plane, with standard errors along and across the table.
    var centre: (point: SIMD2<Double>, alongSigma: Double, acrossSigma: Double)? = nil
    /// Points the net line passes through, each with its standard error along the table.
    var netPoints: [(point: SIMD2<Double>, sigma: Double)] = []
    /// Height of the table's top (the plane of the ball's centre at a bounce minus its radius, or
    /// the top itself), metres.
    var height: (value: Double, sigma: Double)? = nil
  }

  struct Result: Sendable {
    var heading: Double
    var headingSigma: Double
    var centre: SIMD2<Double>
    var alongSigma: Double
    var acrossSigma: Double
    var height: Double
    var heightSigma: Double
    var reports: [VenueSourceReport]
  }

  /// `value` wrapped into (−π/2, π/2].
  static func halfTurn(_ value: Double) -> Double {
    var x = value.truncatingRemainder(dividingBy: Double.pi)
    if x > Double.pi / 2 { x -= Double.pi }
    if x <= -Double.pi / 2 { x += Double.pi }
    return x
  }

  /// The combined estimate; nil when no clue gives a heading, the centre along and across, or a
  /// height (a standard error of 0 or less, or not finite, leaves that measurement out).
  static func combine(_ clues: [Clue]) -> Result? {
    func usable(_ sigma: Double) -> Bool { sigma > 0 && sigma.isFinite }
    var reports: [VenueSourceReport] = []

    // Heading: the inverse-variance mean of the turns from the most certain one (modulo a half turn).
    let headings = clues.compactMap { c in c.heading.flatMap { usable($0.sigma) ? (c.source, $0.value, $0.sigma) : nil } }
    guard let reference = headings.min(by: { $0.2 < $1.2 }) else { return nil }
    let turns = headings.map { (source: $0.0, value: halfTurn($0.1 - reference.1), sigma: $0.2) }
    guard let turn = weightedMean(turns) else { return nil }
    let heading = halfTurn(reference.1 + turn.value)
    let degrees = 180 / Double.pi
    reports += sourceReports(.heading, turns, fused: turn).map { r in
      var r = r
      r.residual *= degrees
      r.sigma *= degrees
      return r
    }

    // Centre: least squares over the constraints along and across the combined heading.
    let axis = SIMD2(cos(heading), sin(heading)), normal = SIMD2(-axis.y, axis.x)
    var along: [(source: String, value: Double, sigma: Double)] = []
    var across: [(source: String, value: Double, sigma: Double)] = []
    for c in clues {
      if let centre = c.centre {
        if usable(centre.alongSigma) { along.append((c.source, (centre.point * axis).sum(), centre.alongSigma)) }
        if usable(centre.acrossSigma) { across.append((c.source, (centre.point * normal).sum(), centre.acrossSigma)) }
      }
      for p in c.netPoints where usable(p.sigma) { along.append((c.source, (p.point * axis).sum(), p.sigma)) }
    }
    let heights = clues.compactMap { c in c.height.flatMap { usable($0.sigma) ? (source: c.source, value: $0.value, sigma: $0.sigma) : nil } }
    guard let a = weightedMean(along), let n = weightedMean(across), let h = weightedMean(heights) else { return nil }
    reports += sourceReports(.along, along, fused: a) + sourceReports(.across, across, fused: n)
      + sourceReports(.height, heights, fused: h)
    return Result(
      heading: heading, headingSigma: turn.sigma, centre: a.value * axis + n.value * normal,
      alongSigma: a.sigma, acrossSigma: n.sigma, height: h.value, heightSigma: h.sigma, reports: reports)
  }

  /// One report per source of `list` for `parameter`: its own weighted mean (several net contacts are
  /// one source) against the combined value, and its share of the information.
  static func sourceReports(
    _ parameter: VenueSourceReport.Parameter, _ list: [(source: String, value: Double, sigma: Double)],
    fused: (value: Double, sigma: Double)
  ) -> [VenueSourceReport] {
    var order: [String] = []
    for m in list where !order.contains(m.source) { order.append(m.source) }
    return order.compactMap { source -> VenueSourceReport? in
      guard let own = weightedMean(list.filter { $0.source == source }) else { return nil }
      let weight: Double = (fused.sigma * fused.sigma) / (own.sigma * own.sigma)
      return VenueSourceReport(source: source, parameter: parameter, residual: own.value - fused.value, sigma: own.sigma, weight: weight)
    }
  }

  /// Inverse-variance weighted mean and its standard error; nil for no values.
  static func weightedMean(_ values: [(source: String, value: Double, sigma: Double)]) -> (value: Double, sigma: Double)? {
    guard !values.isEmpty else { return nil }
    let information = values.map { 1 / ($0.sigma * $0.sigma) }.reduce(0, +)
    let mean = values.map { $0.value / ($0.sigma * $0.sigma) }.reduce(0, +) / information
    return (mean, (1 / information).squareRoot())
  }
}
