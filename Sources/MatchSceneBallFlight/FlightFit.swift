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
  public var model: BallModel

  public init(frames: ClosedRange<Int>, referenceTime: Double, position: SIMD3<Double>, velocity: SIMD3<Double>, rms: Double, model: BallModel) {
    self.frames = frames
    self.referenceTime = referenceTime
    self.position = position
    self.velocity = velocity
    self.rms = rms
    self.model = model
  }

  /// The fitted position at match time `t`.
  public func position(at t: Double) -> SIMD3<Double> { model.advance(position, velocity, by: t - referenceTime).0 }
  /// The fitted velocity at match time `t`.
  public func velocity(at t: Double) -> SIMD3<Double> { model.advance(position, velocity, by: t - referenceTime).1 }
}

/// Least-squares fit of a ballistic flight (position and velocity at a reference time) to
/// observations, by Gauss–Newton with a finite-difference Jacobian of the RK4 flight model
/// (Nocedal & Wright, Numerical Optimization, 2nd ed., §10.3).
public enum FlightFit {
  /// - Parameters:
  ///   - samples: (match time s, observed position) pairs, at least 3.
  ///   - initial: a starting velocity (nil: from a drag-free parabola through the samples).
  public static func fit(_ samples: [(time: Double, position: SIMD3<Double>)], model: BallModel, frames: ClosedRange<Int>, iterations: Int = 8) -> BallFlight? {
    guard samples.count >= 3 else { return nil }
    let t0 = samples[samples.count / 2].time
    let times = samples.map { $0.time - t0 }
    // Start: a drag-free parabola (exact for gravity alone) fitted per axis by linear least squares.
    var p = SIMD3<Double>.zero, v = SIMD3<Double>.zero
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
    var params = [p.x, p.y, p.z, v.x, v.y, v.z]
    let order = BallModel.timeOrder(times)
    let positionStep = 1e-6, velocityStep = 1e-5
    /// The residuals at `q` and, entry 3i + k, those of axis k with the start moved `positionStep`
    /// along axis k (the other axes' residuals do not change: `BallModel.positions(…shiftedBy:)`).
    func residuals(_ q: [Double], shifted: Bool) -> (r: [Double], shifted: [Double]) {
      let predicted = model.positions(
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
    var (r, rShifted) = residuals(params, shifted: iterations > 0)
    var cost = r.map { $0 * $0 }.reduce(0, +)
    for _ in 0..<iterations {
      // Jacobian by forward differences; the position columns from the shifted residuals.
      var J = [[Double]](repeating: [], count: 6)
      for k in 0..<3 {
        J[k] = (0..<r.count).map { e in
          (e % 3 == k ? rShifted[e] - r[e] : r[e] - r[e]) / positionStep
        }
      }
      for k in 3..<6 {
        var q = params
        q[k] += velocityStep
        J[k] = zip(residuals(q, shifted: false).r, r).map { ($0 - $1) / velocityStep }
      }
      // Normal equations (6×6), solved by Gaussian elimination with partial pivoting.
      var A = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
      var b = [Double](repeating: 0, count: 6)
      // Sums in the order of `reduce` over the products, without the arrays of products.
      func dot(_ x: [Double], _ y: [Double]) -> Double {
        var sum = 0.0
        for k in 0..<min(x.count, y.count) { sum += x[k] * y[k] }
        return sum
      }
      for i in 0..<6 {
        for j in 0..<6 { A[i][j] = dot(J[i], J[j]) }
        b[i] = -dot(J[i], r)
        A[i][i] *= 1 + 1e-9
      }
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
      if improvement < 1e-12 { break }
    }
    return BallFlight(
      frames: frames, referenceTime: t0, position: SIMD3(params[0], params[1], params[2]),
      velocity: SIMD3(params[3], params[4], params[5]), rms: (cost / Double(samples.count)).squareRoot(), model: model)
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
