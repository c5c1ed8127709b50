import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the racket's launch velocity that sends the ball where a player aims, under gravity and drag,
/// by the shooting method: integrate the flight, measure where it crosses the aim plane, and correct
/// the launch velocity with Newton's method on a finite-difference Jacobian (Press et al., *Numerical
/// Recipes*, 3rd ed., §18.1 "The Shooting Method", §9.7 globally convergent Newton with step halving).
///
/// Flights here ignore the net and the table outline; the simulator replays every solved shot with
/// the full contact model and rejects one that does not do what was intended.
struct ShotSolver {
  var physics: BallPhysics
  /// Integration step, seconds (the simulator's).
  var step: Double
  /// Longest flight considered, seconds.
  var maxFlight: Double = 4
  /// The spin the racket gives the ball: topspin (negative: backspin) and sidespin, rad/s
  /// (`launchSpin`).
  var spin = SIMD2<Double>.zero

  /// The angular velocity of a ball launched at `v` with `spin`: topspin about ẑ × d (d the horizontal
  /// direction of `v`), sidespin about ẑ (counter-clockwise seen from above).
  func launchSpin(_ v: SIMD3<Double>) -> SIMD3<Double> {
    guard spin != .zero else { return .zero }
    let h = SIMD3(v.x, v.y, 0)
    let speed = length(h)
    let top = speed > 0 ? SIMD3(-h.y, h.x, 0) / speed : .zero
    return spin.x * top + SIMD3(0, 0, spin.y)
  }

  /// Free flight from `p`, `v` (spinning at `omega`; nil: `launchSpin(v)`) until `g` changes from ≥ 0
  /// to < 0; nil when it does not within `maxFlight`.
  func flight(
    from p: SIMD3<Double>, _ v: SIMD3<Double>, spin omega: SIMD3<Double>? = nil, until g: (SIMD3<Double>) -> Double
  ) -> (time: Double, position: SIMD3<Double>, velocity: SIMD3<Double>)? {
    let omega = omega ?? launchSpin(v)
    var p = p, v = v, t = 0.0
    while t < maxFlight {
      let end = physics.step(p, v, step, spin: omega)
      if g(p) >= 0, g(end.position) < 0 {
        let hit = physics.bisect(p, v, step, spin: omega, g)
        return (t + hit.tau, hit.position, hit.velocity)
      }
      (p, v) = end
      t += step
      if p.z < -1 { return nil }
    }
    return nil
  }

  /// Where a flight from `p`, `v` first comes down to table height (z = surface + radius).
  func landing(
    from p: SIMD3<Double>, _ v: SIMD3<Double>, spin omega: SIMD3<Double>? = nil
  ) -> (time: Double, position: SIMD3<Double>, velocity: SIMD3<Double>)? {
    let level = physics.tableContactHeight
    return flight(from: p, v, spin: omega) { $0.z - level }
  }

  /// Where a flight first reaches the net plane x = 0 (ball centre), coming from the side it starts on.
  func netCrossing(from p: SIMD3<Double>, _ v: SIMD3<Double>, spin omega: SIMD3<Double>? = nil) -> SIMD3<Double>? {
    let side: Double = p.x >= 0 ? 1 : -1
    return flight(from: p, v, spin: omega) { side * $0.x }?.position
  }

  /// The bounce on the table top as `BallPhysics` applies it (asset restitution and tangential keep;
  /// a spinning ball's by `BallPhysics.spinBounce`): velocity and spin after it.
  func tableBounce(_ v: SIMD3<Double>, spin omega: SIMD3<Double> = .zero) -> (velocity: SIMD3<Double>, spin: SIMD3<Double>) {
    let b = physics.ball
    if omega != .zero {
      return physics.spinBounce(v, spin: omega, restitution: b.restitutionTable, keep: b.tangentialKeepTable)
    }
    return (SIMD3(b.tangentialKeepTable * v.x, b.tangentialKeepTable * v.y, -b.restitutionTable * v.z), .zero)
  }

  /// Whether a flight clears the net by `margin` (bottom of the ball above the tape).
  func clearsNet(from p: SIMD3<Double>, _ v: SIMD3<Double>, margin: Double) -> Bool {
    guard let q = netCrossing(from: p, v) else { return false }
    return q.z - physics.ball.radius >= physics.surfaceHeight + physics.netHeight + margin
  }

  // MARK: - Shots

  /// A flight from `p0` with horizontal launch speed `hs` that comes down to table height at `target`
  /// (x, y), whatever happens on the way; nil when Newton's method does not converge.
  func landingShot(from p0: SIMD3<Double>, horizontalSpeed hs: Double, target: SIMD2<Double>) -> SIMD3<Double>? {
    let dx = target.x - p0.x, dy = target.y - p0.y
    let d = (dx * dx + dy * dy).squareRoot()
    let T = d / hs * (1 + 0.5 * physics.drag * d)
    let dz = physics.tableContactHeight - p0.z
    let guess = [atan2(dy, dx), (dz + 0.5 * physics.ball.gravity * T * T) / T]
    func velocity(_ u: [Double]) -> SIMD3<Double> { SIMD3(hs * cos(u[0]), hs * sin(u[0]), u[1]) }
    guard
      let u = newton(guess, tolerance: 1e-5, residual: { u in
        guard let land = landing(from: p0, velocity(u)) else { return nil }
        return [land.position.x - target.x, land.position.y - target.y]
      })
    else { return nil }
    return velocity(u)
  }

  /// A rally shot from `p0` with horizontal launch speed `horizontalSpeed` that lands on table height
  /// at `target` (x, y) and clears the net by `margin`. Returns nil when Newton's method does not
  /// converge or the net is not cleared.
  func rallyShot(
    from p0: SIMD3<Double>, horizontalSpeed hs: Double, target: SIMD2<Double>, margin: Double
  ) -> SIMD3<Double>? {
    guard let v0 = landingShot(from: p0, horizontalSpeed: hs, target: target) else { return nil }
    return clearsNet(from: p0, v0, margin: margin) ? v0 : nil
  }

  /// A serve candidate: launch velocity, the bounce on the receiver's half, and the height of the
  /// bottom of the ball above the tape where it crosses the net.
  struct Serve {
    var velocity: SIMD3<Double>
    var secondBounce: SIMD3<Double>
    var clearance: Double
  }

  /// Serves from `p0` whose first bounce is at `firstBounce` (x, y) on the server's half (ITTF rule
  /// 2.6.3), one per horizontal launch speed in `speeds` that can be solved: fixing the first bounce
  /// leaves a one-parameter family of serves, sampled by the launch speed; the caller picks one that
  /// clears the net and lands on the receiver's half.
  func serves(from p0: SIMD3<Double>, firstBounce: SIMD2<Double>, speeds: [Double]) -> [Serve] {
    let tape = physics.surfaceHeight + physics.netHeight + physics.ball.radius
    var out: [Serve] = []
    for hs in speeds {
      guard let v0 = landingShot(from: p0, horizontalSpeed: hs, target: firstBounce),
        let first = landing(from: p0, v0)
      else { continue }
      let (after, spinAfter) = tableBounce(first.velocity, spin: launchSpin(v0))
      guard let net = netCrossing(from: first.position, after, spin: spinAfter),
        let second = landing(from: first.position, after, spin: spinAfter)
      else { continue }
      out.append(Serve(velocity: v0, secondBounce: second.position, clearance: net.z - tape))
    }
    return out
  }

  /// A shot from `p0` that meets the net plane at (`y`, `z`) (ball centre), i.e. goes into the net.
  func netShot(from p0: SIMD3<Double>, horizontalSpeed hs: Double, y: Double, z: Double) -> SIMD3<Double>? {
    let side: Double = p0.x >= 0 ? 1 : -1
    let plane = physics.ball.radius
    let dx = -p0.x, dy = y - p0.y
    let d = (dx * dx + dy * dy).squareRoot()
    let T = d / hs
    let guess = [atan2(dy, dx), (z - p0.z + 0.5 * physics.ball.gravity * T * T) / T]
    func velocity(_ u: [Double]) -> SIMD3<Double> { SIMD3(hs * cos(u[0]), hs * sin(u[0]), u[1]) }
    guard
      let u = newton(guess, tolerance: 1e-5, residual: { u in
        guard let hit = flight(from: p0, velocity(u), until: { side * $0.x - plane }) else { return nil }
        return [hit.position.y - y, hit.position.z - z]
      })
    else { return nil }
    return velocity(u)
  }

  // MARK: - Newton

  /// Newton's method with a forward-difference Jacobian and step halving; nil when the residual cannot
  /// be evaluated or stays above `tolerance` after 30 iterations.
  func newton(_ start: [Double], tolerance: Double, residual: ([Double]) -> [Double]?) -> [Double]? {
    var u = start
    guard var r = residual(u) else { return nil }
    let n = u.count
    for _ in 0..<30 {
      let norm = r.map { $0 * $0 }.reduce(0, +).squareRoot()
      if norm < tolerance { return u }
      var jacobian = [Double](repeating: 0, count: n * n)
      for j in 0..<n {
        var up = u
        let h = 1e-6 * max(1, abs(u[j]))
        up[j] += h
        guard let rp = residual(up) else { return nil }
        for i in 0..<n { jacobian[i * n + j] = (rp[i] - r[i]) / h }
      }
      guard let delta = Self.solve(jacobian, r.map { -$0 }, n: n) else { return nil }
      var scale = 1.0
      var accepted = false
      while scale > 1e-3 {
        let trial = zip(u, delta).map { $0 + scale * $1 }
        if let rt = residual(trial), rt.map({ $0 * $0 }).reduce(0, +).squareRoot() < norm {
          u = trial
          r = rt
          accepted = true
          break
        }
        scale *= 0.5
      }
      if !accepted { return nil }
    }
    return r.map { $0 * $0 }.reduce(0, +).squareRoot() < tolerance ? u : nil
  }

  /// Solves the n×n system `a x = b` (row-major) by Gaussian elimination with partial pivoting; nil
  /// when singular.
  static func solve(_ a: [Double], _ b: [Double], n: Int) -> [Double]? {
    var a = a, b = b
    for col in 0..<n {
      var pivot = col
      for row in col + 1..<n where abs(a[row * n + col]) > abs(a[pivot * n + col]) { pivot = row }
      guard abs(a[pivot * n + col]) > 1e-14 else { return nil }
      if pivot != col {
        for k in 0..<n { a.swapAt(col * n + k, pivot * n + k) }
        b.swapAt(col, pivot)
      }
      for row in col + 1..<n {
        let f = a[row * n + col] / a[col * n + col]
        for k in col..<n { a[row * n + k] -= f * a[col * n + k] }
        b[row] -= f * b[col]
      }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
      var s = b[row]
      for k in row + 1..<n { s -= a[row * n + k] * x[k] }
      x[row] = s / a[row * n + row]
    }
    return x
  }
}
