import MatchSceneBallFlight
import MatchSceneCore

/// Gravity from the ball's flights with each flight's spin and drag free: one least-squares fit of a
/// single gravity correction δg shared by every flight and, per flight, its state (position,
/// velocity), its drag constant and, where the flight is fast enough to show it, its Magnus
/// acceleration k_M ω × v (ω on the topspin and sidespin axes of `FlightSpin.basis`; the component
/// along the flight is unobservable).
///
/// Each flight was fitted with the model's gravity and drag and no spin; its residuals are
/// linearised about that fit (`BallModel` integrated with each parameter nudged: a finite-difference
/// Jacobian), and the flight's own parameters are eliminated, leaving its information about δg — the
/// reduced normal equations of a problem with shared and per-block parameters (the Schur complement
/// of bundle adjustment: Triggs et al., "Bundle Adjustment — A Modern Synthesis", Vision Algorithms
/// 1999, §6.1). A gravity error is the same constant acceleration on every flight, while ω × v turns
/// with each flight's velocity (and bends with it during the flight) and drag acts along it, which is
/// what separates them: a flight's spin absorbs the part of δg across its direction, so δg across the
/// table is known only from flights that cross it at an angle, and the standard error says so.
///
/// A flight's spin, then its drag, are freed only when they lower its squared residual (at the current
/// δg) significantly (`Flight.chosen`), so a spinless flight keeps all it tells of δg. Flights are weighed by their own residual variance; a flight whose own best δg lies further
/// from the common one than its information allows (χ²₃ above 16.3, 0.1 %, times the Birge ratio) is
/// dropped and the fit redone (a ball carried in the hand, a flight spanning a contact). The standard
/// errors are the inverse normal matrix's, scaled up by the Birge ratio (R. T. Birge, "The calculation
/// of errors by the method of least squares", Phys. Rev. 40, 1932) when the flights scatter more than
/// their noise says.
struct FlightGravity: Sendable {
  /// One flight's information about δg, its own parameters eliminated: `rss(δg)` is its least squared
  /// residual with δg fixed, `information` and `vector` the reduced normal equations N δg = u.
  struct Share: Sendable {
    var information: [[Double]]
    var vector: SIMD3<Double>
    /// Squared residual at δg = 0, m².
    var rss: Double
    /// Observations minus the flight's own parameters (3 per sample).
    var degrees: Int

    func rss(at dg: SIMD3<Double>) -> Double { max(0, rss - 2 * dot(dg, vector) + dot(dg, FlightGravity.times(information, dg))) }
  }

  /// A flight's shares with only its state free, with its spin free too (nil: too slow or too short
  /// to show spin), and with its drag free as well (nil: too short).
  struct Flight: Sendable {
    var plain: Share
    var spinning: Share?
    var dragging: Share?
    /// Whether the flight's own fit already had its spin free (and kept it): its spin then stays free.
    var spun = false

    /// The richest share (for the flight's residual variance).
    var richest: Share { dragging ?? spinning ?? plain }

    /// The share whose parameters the flight shows at `dg`: the spin when the flight's own fit kept one
    /// (`spun`: that spin took up part of `dg` already) or when freeing it lowers the squared
    /// residual by more than `FlightFit.spinTestCritical` (χ²₂ at 0.1 %) residual variances, then the
    /// drag when it lowers it by more than `dragTestCritical` (χ²₁ at 0.1 %) — nested F-tests in their
    /// large-sample form (Seber & Wild, Nonlinear Regression, §5.3).
    func chosen(at dg: SIMD3<Double>, variance: Double) -> Share {
      var share = plain
      if let spinning, spun || (plain.rss(at: dg) - spinning.rss(at: dg)) / variance > FlightFit.spinTestCritical { share = spinning }
      if let dragging, (share.rss(at: dg) - dragging.rss(at: dg)) / variance > FlightGravity.dragTestCritical { share = dragging }
      return share
    }
  }

  /// χ²₁ at 0.1 %: the drag is freed when it lowers a flight's squared residual by more than this many
  /// times its residual variance.
  static let dragTestCritical = 10.83

  /// χ²₃ at 0.1 %: a flight whose own δg is further from the common one is dropped.
  static let misfitCritical = 16.3

  /// The shares of `flight` from its observed `samples` (match time, position).
  static func flight(_ flight: BallFlight, samples: [(Double, SIMD3<Double>)]) -> Flight? {
    let base = flight.model
    let times = samples.map { $0.0 - flight.referenceTime }
    let path = base.positions(from: flight.position, flight.velocity, at: times)
    let residual = zip(samples, path).map { $0.1 - $1 }
    func column(_ model: BallModel, velocity: SIMD3<Double>, step: Double) -> [SIMD3<Double>] {
      zip(model.positions(from: flight.position, velocity, at: times), path).map { ($0 - $1) / step }
    }
    let step = 1e-3
    let unit = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
    var columns: [[SIMD3<Double>]] = unit.map { e in times.map { _ in e } }
    columns += unit.map { column(base, velocity: flight.velocity + step * $0, step: step) }
    // The drag constant (a spinning ball's drag differs from a still one's: its drag coefficient rises
    // with the spin — Nathan, "The effect of spin on the flight of a baseball", Am. J. Phys. 76, 2008),
    // and the Magnus acceleration per unit velocity, k_M ω, on the flight's topspin and sidespin axes.
    var drag = base
    drag.drag += step
    let dragColumn = column(drag, velocity: flight.velocity, step: step)
    var spinColumns: [[SIMD3<Double>]] = []
    if samples.count >= 8, let basis = FlightSpin.basis(velocity: flight.velocity) {
      for axis in [basis.top, basis.side] {
        var model = base
        model.magnus = 1
        model.spin = base.magnus * base.spin + step * axis
        spinColumns.append(column(model, velocity: flight.velocity, step: step))
      }
    }
    let gravityColumns: [[SIMD3<Double>]] = unit.map { e in
      var model = base
      model.gravity += step * e
      return column(model, velocity: flight.velocity, step: step)
    }
    guard let plain = share(local: columns, global: gravityColumns, residual: residual) else { return nil }
    let spinning = spinColumns.isEmpty ? nil : share(local: columns + spinColumns, global: gravityColumns, residual: residual)
    let dragging = share(local: columns + spinColumns + [dragColumn], global: gravityColumns, residual: residual)
    // A spinning path keeps its spin free here, whether its spin is reported or only a candidate.
    return Flight(plain: plain, spinning: spinning, dragging: dragging, spun: flight.model.spin != .zero)
  }

  /// The reduced normal equations of δg (`global`, 3 columns) with the `local` columns eliminated.
  static func share(local: [[SIMD3<Double>]], global: [[SIMD3<Double>]], residual: [SIMD3<Double>]) -> Share? {
    func product(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> Double { zip(a, b).map { dot($0, $1) }.reduce(0, +) }
    let p = local.count
    let degrees = 3 * residual.count - p
    guard degrees > 3 else { return nil }
    let a = local.map { x in local.map { product(x, $0) } }
    let b = local.map { x in global.map { product(x, $0) } }
    let ar = local.map { product($0, residual) }
    // A⁻¹ [B | Aᵀr], column by column.
    guard let inverseAr = FlightFit.solve(a, ar) else { return nil }
    var inverseB: [[Double]] = []
    for k in 0..<3 {
      guard let x = FlightFit.solve(a, b.map { $0[k] }) else { return nil }
      inverseB.append(x)
    }
    var n = [[Double]](repeating: [0, 0, 0], count: 3)
    var u = SIMD3<Double>.zero
    for i in 0..<3 {
      u[i] = product(global[i], residual) - (0..<p).map { b[$0][i] * inverseAr[$0] }.reduce(0, +)
      for j in 0..<3 { n[i][j] = product(global[i], global[j]) - (0..<p).map { b[$0][i] * inverseB[j][$0] }.reduce(0, +) }
    }
    let rss = product(residual, residual) - zip(ar, inverseAr).map(*).reduce(0, +)
    return Share(information: n, vector: u, rss: max(0, rss), degrees: degrees)
  }

  /// The gravity correction δg (levelled frame), its standard error per axis and the flights used;
  /// nil when no flight could be used or the normal equations are singular.
  static func estimate(_ flights: [Flight]) -> (dg: SIMD3<Double>, standardError: SIMD3<Double>, flights: Int)? {
    var kept = Array(flights.indices)
    var dg = SIMD3<Double>.zero
    // Each flight's residual variance, from its richest model at the current δg.
    func variance(_ i: Int) -> Double {
      let s = flights[i].richest
      return max(s.rss(at: dg) / Double(s.degrees), 1e-12)
    }
    var result: (dg: SIMD3<Double>, covariance: [[Double]], flights: Int)? = nil
    for _ in 0..<8 {
      guard !kept.isEmpty else { return nil }
      var n = [[Double]](repeating: [0, 0, 0], count: 3)
      var u = SIMD3<Double>.zero
      var shares: [(index: Int, share: Share, variance: Double)] = []
      for i in kept {
        let s2 = variance(i)
        let share = flights[i].chosen(at: dg, variance: s2)
        for r in 0..<3 { for c in 0..<3 { n[r][c] += share.information[r][c] / s2 } }
        u += share.vector / s2
        shares.append((i, share, s2))
      }
      guard let covariance = Self.inverse(n) else { return nil }
      let newDg = Self.times(covariance, u)
      // Each flight's χ² gain from a δg of its own, and the Birge ratio over the flights.
      let misfits = shares.map { s -> Double in
        let info = s.share.information
        let g = s.share.vector - Self.times(info, newDg)
        let ridge = 1e-9 * (info[0][0] + info[1][1] + info[2][2])
        guard let own = FlightFit.solve((0..<3).map { r in (0..<3).map { info[r][$0] + (r == $0 ? ridge : 0) } }, [g.x, g.y, g.z])
        else { return 0 }
        return (g.x * own[0] + g.y * own[1] + g.z * own[2]) / s.variance
      }
      let birge = max(1, misfits.reduce(0, +) / Double(max(1, 3 * shares.count - 3)))
      let worse = zip(shares, misfits).filter { $0.1 > misfitCritical * birge }.map(\.0.index)
      let settled = length(newDg - dg) < 1e-4 && worse.isEmpty
      dg = newDg
      result = (dg, covariance.map { $0.map { birge * $0 } }, shares.count)
      if settled { break }
      if !worse.isEmpty, worse.count < kept.count { kept.removeAll { worse.contains($0) } }
    }
    guard let result else { return nil }
    let c = result.covariance
    return (result.dg, SIMD3(max(0, c[0][0]), max(0, c[1][1]), max(0, c[2][2])).squareRoot(), result.flights)
  }

  /// `m v` for a 3 × 3 matrix given by rows.
  static func times(_ m: [[Double]], _ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
          m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z)
  }

  /// The inverse of a 3 × 3 matrix given by rows; nil when singular.
  static func inverse(_ m: [[Double]]) -> [[Double]]? {
    var columns: [[Double]] = []
    for k in 0..<3 {
      guard let x = FlightFit.solve(m, (0..<3).map { $0 == k ? 1 : 0 }) else { return nil }
      columns.append(x)
    }
    return (0..<3).map { r in (0..<3).map { columns[$0][r] } }
  }
}
