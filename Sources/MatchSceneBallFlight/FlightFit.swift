import MatchSceneCore

/// One ball flight between two contacts, fitted to observed positions.
public struct BallFlight: Sendable {
  /// First and last observed frame of the flight.
  public var frames: ClosedRange<Int>
  /// State at `referenceTime` (seconds of match time).
  public var referenceTime: Double
  public var position: SIMD3<Double>
  public var velocity: SIMD3<Double>
  /// RMS distance of the observations from the fit, metres.
  public var rms: Double
  /// The flight model; its `spin` is the fitted angular velocity when `spin` is set.
  public var model: BallModel
  /// The spin fitted to this flight, when the fit had spin free and the model test kept it (nil:
  /// spinless, or not tested).
  public var spin: FlightSpin?
  /// Standard uncertainty (1σ) of the drag constant, 1/m, when the fit had the drag free.
  public var dragUncertainty: Double?
  /// The spin the flight's samples give when the model test did not keep it (nil: kept, or not
  /// fitted): what a flight after a spinning ball's bounce reports (`FlightSpin.afterBounce`).
  public var spinCandidate: FlightSpin?

  public init(
    frames: ClosedRange<Int>, referenceTime: Double, position: SIMD3<Double>, velocity: SIMD3<Double>, rms: Double, model: BallModel,
    spin: FlightSpin? = nil, dragUncertainty: Double? = nil
  ) {
    self.frames = frames
    self.referenceTime = referenceTime
    self.position = position
    self.velocity = velocity
    self.rms = rms
    self.model = model
    self.spin = spin
    self.dragUncertainty = dragUncertainty
  }

  /// The fitted position at match time `t`.
  public func position(at t: Double) -> SIMD3<Double> { model.advance(position, velocity, by: t - referenceTime).0 }
  /// The fitted velocity at match time `t`.
  public func velocity(at t: Double) -> SIMD3<Double> { model.advance(position, velocity, by: t - referenceTime).1 }

  /// The fitted positions at the match times `times`, from one integration pass (the same as
  /// `position(at:)` of each, in one pass instead of one each).
  public func positions(at times: [Double]) -> [SIMD3<Double>] {
    model.positions(from: position, velocity, at: times.map { $0 - referenceTime })
  }

  /// The same flight with its state given at match time `t`: `position(at:)` and `velocity(at:)` near
  /// `t` then integrate from `t` rather than from the fit's reference time (for many evaluations in a
  /// short window, as a search for where two flights meet makes).
  public func rebased(at t: Double) -> BallFlight {
    var flight = self
    (flight.position, flight.velocity) = model.advance(position, velocity, by: t - referenceTime)
    flight.referenceTime = t
    return flight
  }
}

/// What a flight fit leaves free besides the start position and velocity.
public struct FlightFitFreedom: Sendable, Equatable {
  /// Fit the drag constant k_D (starting from the model's).
  public var drag = false
  /// Fit the spin: its topspin and sidespin components (`FlightSpin.basis`); the component along the
  /// flight's direction bends nothing (ω × v = 0) and is not fitted.
  public var spin = false
  public init(drag: Bool = false, spin: Bool = false) {
    self.drag = drag
    self.spin = spin
  }
  public static let none = FlightFitFreedom()
}

/// Least-squares fit of a ballistic flight (position and velocity at a reference time, optionally the
/// drag constant and the spin) to observations, by Gauss–Newton with a finite-difference Jacobian of
/// the RK4 flight model (Nocedal & Wright, Numerical Optimization, 2nd ed., §10.3); the free
/// parameters' uncertainties from the covariance σ² (JᵀJ)⁻¹, σ² = RSS / (n − p) (ibid. §10.3; Bates
/// & Watts, Nonlinear Regression Analysis, §2.3).
public enum FlightFit {
  /// - Parameters:
  ///   - samples: (match time s, observed position) pairs, at least 3 (and 3 more per free drag or spin
  ///     parameter pair).
  ///   - free: what is fitted besides position and velocity; a spin fit needs a horizontal speed at the
  ///     first sample of at least `FlightSpin.minimumHorizontalSpeed` (else the flight is fitted spinless).
  ///   - start: a flight near the solution (a fit of nearly the same samples) to start from: its state
  ///     at the reference time and, when the spin is free, its spin. Without it the fit starts from a
  ///     drag-free parabola and the model's spin. A good start saves the iterations that carry the
  ///     parabola to the drag path; the minimum reached is the same.
  public static func fit(
    _ samples: [(time: Double, position: SIMD3<Double>)], model: BallModel, frames: ClosedRange<Int>, iterations: Int = 8,
    free: FlightFitFreedom = .none, start: BallFlight? = nil
  ) -> BallFlight? {
    guard samples.count >= 3 else { return nil }
    let t0 = samples[samples.count / 2].time
    let times = samples.map { $0.time - t0 }
    // Start: a drag-free parabola (exact for gravity alone) fitted per axis by linear least squares.
    var p = SIMD3<Double>.zero, v = SIMD3<Double>.zero
    if let start, start.position.x.isFinite, start.velocity.x.isFinite {
      (p, v) = start.model.advance(start.position, start.velocity, by: t0 - start.referenceTime)
    } else {
      for axis in 0..<3 {
        // x(t) = a + b t + ½ g t²: subtract gravity, fit a line.
        let g = model.gravity[axis]
        let y = samples.indices.map { samples[$0].position[axis] - 0.5 * g * times[$0] * times[$0] }
        let n = Double(times.count)
        let st = times.reduce(0, +), stt = times.map { $0 * $0 }.reduce(0, +)
        let sy = y.reduce(0, +), sty = zip(times, y).map(*).reduce(0, +)
        let det = n * stt - st * st
        guard abs(det) > 1e-15 else { return nil }
        p[axis] = (stt * sy - st * sty) / det
        v[axis] = (n * sty - st * sy) / det
      }
    }
    // Extra parameters after the six of the state: the drag, then the spin's two components, on the
    // axes of the flight's launch (`FlightSpin.launchVelocity`).
    let basis = free.spin ? FlightSpin.basis(velocity: FlightSpin.launchVelocity(p, v, at: times, model: start?.model ?? model)) : nil
    let fitDrag = free.drag && samples.count >= 6
    let fitSpin = basis != nil && samples.count >= (fitDrag ? 9 : 8)
    var params = [p.x, p.y, p.z, v.x, v.y, v.z]
    if fitDrag { params.append(model.drag) }
    if fitSpin {
      // Start from the start flight's spin, else the model's, projected on the basis (zero for a
      // spinless model).
      let spin0 = start?.model.spin ?? model.spin
      params.append(dot(spin0, basis!.top))
      params.append(dot(spin0, basis!.side))
    }
    let count = params.count
    let spinIndex = fitDrag ? 7 : 6
    func flightModel(_ q: [Double]) -> BallModel {
      var m = model
      if fitDrag { m.drag = q[6] }
      if fitSpin { m.spin = q[spinIndex] * basis!.top + q[spinIndex + 1] * basis!.side }
      return m
    }
    let order = BallModel.timeOrder(times)
    let positionStep = 1e-6, velocityStep = 1e-5, dragStep = 1e-6, spinStep = 1e-2
    let steps = [Double](repeating: velocityStep, count: 3) + (fitDrag ? [dragStep] : []) + (fitSpin ? [spinStep, spinStep] : [])
    /// The residuals at `q` and, entry 3i + k, those of axis k with the start moved `positionStep`
    /// along axis k (the other axes' residuals do not change: `BallModel.positions(…shiftedBy:)`).
    func residuals(_ q: [Double], shifted: Bool) -> (r: [Double], shifted: [Double]) {
      let predicted = flightModel(q).positions(
        from: SIMD3(q[0], q[1], q[2]), SIMD3(q[3], q[4], q[5]), at: times, order: order,
        shiftedBy: shifted ? positionStep : nil)
      var r: [Double] = [], rs: [Double] = []
      r.reserveCapacity(3 * samples.count)
      if shifted { rs.reserveCapacity(3 * samples.count) }
      for (i, s) in samples.enumerated() {
        let d = predicted.positions[i] - s.position
        r.append(d.x)
        r.append(d.y)
        r.append(d.z)
        if shifted {
          let ds = predicted.shifted[i] - s.position
          rs.append(ds.x)
          rs.append(ds.y)
          rs.append(ds.z)
        }
      }
      return (r, rs)
    }
    // Sums in the order of `reduce` over the products, without the arrays of products.
    func dotProduct(_ x: [Double], _ y: [Double]) -> Double {
      var sum = 0.0
      for k in 0..<min(x.count, y.count) { sum += x[k] * y[k] }
      return sum
    }
    var (r, rShifted) = residuals(params, shifted: iterations > 0)
    var cost = r.map { $0 * $0 }.reduce(0, +)
    var normal: [[Double]]?
    for iteration in 0..<iterations {
      // Jacobian by forward differences; the position columns from the shifted residuals.
      var J = [[Double]](repeating: [], count: count)
      for k in 0..<3 {
        J[k] = (0..<r.count).map { e in
          (e % 3 == k ? rShifted[e] - r[e] : r[e] - r[e]) / positionStep
        }
      }
      for k in 3..<count {
        var q = params
        q[k] += steps[k - 3]
        J[k] = zip(residuals(q, shifted: false).r, r).map { ($0 - $1) / steps[k - 3] }
      }
      // Normal equations, solved by Gaussian elimination with partial pivoting.
      var A = [[Double]](repeating: [Double](repeating: 0, count: count), count: count)
      var b = [Double](repeating: 0, count: count)
      for i in 0..<count {
        for j in 0..<count { A[i][j] = dotProduct(J[i], J[j]) }
        b[i] = -dotProduct(J[i], r)
      }
      if count > 6 { normal = A }
      for i in 0..<count { A[i][i] *= 1 + 1e-9 }
      guard let step = solve(A, b) else { break }
      let candidate = zip(params, step).map(+)
      let (rc, rcShifted) = residuals(candidate, shifted: true)
      let cc = rc.map { $0 * $0 }.reduce(0, +)
      if cc >= cost { break }
      params = candidate
      r = rc
      rShifted = rcShifted
      let improvement = cost - cc
      cost = cc
      // Converged when a step lowers the squared residual by less than 1e-8 of it (or 1e-12 m²): the
      // parameters then move by far less than their uncertainty. With extra parameters the Jacobian
      // is refreshed once more after the last step, for the covariance.
      if improvement < max(1e-12, 1e-8 * cc) && (count == 6 || iteration > 0) { break }
    }
    let residualCount = Double(3 * samples.count)
    let variance = cost / max(1, residualCount - Double(count))
    /// 1σ of parameter k: √(σ² (JᵀJ)⁻¹_kk).
    func uncertainty(_ k: Int) -> Double? {
      guard let normal else { return nil }
      var unit = [Double](repeating: 0, count: count)
      unit[k] = 1
      guard let column = solve(normal, unit) else { return nil }
      return (variance * max(0, column[k])).squareRoot()
    }
    let fitted = flightModel(params)
    var spin: FlightSpin?
    if fitSpin {
      let top = params[spinIndex], side = params[spinIndex + 1]
      let sigma = max(uncertainty(spinIndex) ?? .infinity, uncertainty(spinIndex + 1) ?? .infinity)
      spin = FlightSpin(topspin: top, sidespin: side, angularVelocity: fitted.spin, uncertainty: sigma)
    }
    return BallFlight(
      frames: frames, referenceTime: t0, position: SIMD3(params[0], params[1], params[2]),
      velocity: SIMD3(params[3], params[4], params[5]), rms: (cost / Double(samples.count)).squareRoot(), model: fitted,
      spin: spin, dragUncertainty: fitDrag ? uncertainty(6) : nil)
  }

  /// The solution of the square system A x = b by Gaussian elimination with partial pivoting; nil when singular.
  public static func solve(_ A: [[Double]], _ b: [Double]) -> [Double]? {
    var a = A, x = b
    let n = b.count
    for c in 0..<n {
      let pivot = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
      guard abs(a[pivot][c]) > 1e-300 else { return nil }
      a.swapAt(c, pivot)
      x.swapAt(c, pivot)
      for r in 0..<n where r != c {
        let f = a[r][c] / a[c][c]
        if f == 0 { continue }
        for k in c..<n { a[r][k] -= f * a[c][k] }
        x[r] -= f * x[c]
      }
    }
    return (0..<n).map { x[$0] / a[$0][$0] }
  }
}
