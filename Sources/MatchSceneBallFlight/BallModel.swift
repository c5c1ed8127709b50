import MatchSceneCore

/// The ball's free flight: gravity, quadratic air drag and the Magnus force of a spinning ball,
/// `a = g − k_D |v| v + k_M ω × v` (k_D = ρ C_D A / 2m, k_M = ρ C_M A r / 2m, ω constant during the
/// flight), the flight model of table-tennis trajectory studies (Nakashima et al., "Modeling of
/// rebound phenomenon of a rigid ball with friction and elastic effects", ACC 2010, eq. 1; Huang et
/// al., "Trajectory prediction of spinning ball for ping-pong player robot", IROS 2011), integrated
/// with classical 4th-order Runge–Kutta. With `spin` zero the Magnus term is skipped, so a spinless
/// model gives exactly the drag-only flight.
public struct BallModel: Sendable, Equatable {
  /// Gravity vector, m/s² (world frame).
  public var gravity: SIMD3<Double>
  /// Drag constant k_D, 1/m.
  public var drag: Double
  /// Magnus constant k_M (dimensionless: acceleration per unit of ω × v, ω in rad/s).
  public var magnus: Double
  /// The ball's angular velocity ω, rad/s, world frame.
  public var spin: SIMD3<Double>

  public init(gravity: SIMD3<Double> = SIMD3(0, 0, -9.81), drag: Double, magnus: Double = 0, spin: SIMD3<Double> = .zero) {
    self.gravity = gravity
    self.drag = drag
    self.magnus = magnus
    self.spin = spin
  }

  /// The Magnus constant of a ball of radius `radius` (m), mass `mass` (kg) and Magnus (lift per spin
  /// parameter) coefficient `coefficient` in air of density `airDensity`: k_M = ρ C_M π r³ / 2m.
  public static func magnusConstant(coefficient: Double, airDensity: Double, radius: Double, mass: Double) -> Double {
    airDensity * coefficient * Double.pi * radius * radius * radius / (2 * mass)
  }

  @inline(__always)
  public func acceleration(_ v: SIMD3<Double>) -> SIMD3<Double> {
    if spin == .zero { return gravity - drag * length(v) * v }
    return gravity - drag * length(v) * v + magnus * cross(spin, v)
  }

  /// The longest RK4 step the model takes, seconds. RK4's error is O(h⁴): a 15 m/s flight with drag and
  /// 150 rev/s of topspin integrated for 1 s in steps of 1/120 s ends 0.006 µm from the same flight in
  /// steps of 1/4800 s (1/480: 0.00002 µm; 1/60: 0.1 µm), far below what a camera measures; a 25 m/s
  /// smash integrated backward from the middle of its flight, where a fit puts its reference, stays
  /// within 1 µm too (`BallModelStepTests`). Backward beyond a flight's start drag makes the speed grow
  /// without bound, and no step is accurate there.
  public static let integrationStep = 1.0 / 120

  /// State after `dt` seconds from (p, v), in RK4 steps of at most `step` seconds. `dt` may be negative.
  public func advance(_ p: SIMD3<Double>, _ v: SIMD3<Double>, by dt: Double, step: Double = integrationStep) -> (SIMD3<Double>, SIMD3<Double>) {
    let (n, h) = Self.steps(dt, step)
    var p = p, v = v
    for _ in 0..<n {
      let (dp, dv) = increments(v, h)
      p += dp
      v += dv
    }
    return (p, v)
  }

  /// The number of equal RK4 steps `advance` takes for `dt`, and their length.
  @inline(__always)
  static func steps(_ dt: Double, _ step: Double) -> (Int, Double) {
    let n = max(1, Int((abs(dt) / step).rounded(.up)))
    return (n, dt / Double(n))
  }

  /// One classical RK4 step of length `h` from velocity `v`: the changes of position and velocity.
  /// Neither depends on the position (the acceleration does not), which `positions(from:_:at:order:shiftedBy:)`
  /// relies on.
  @inline(__always)
  func increments(_ v: SIMD3<Double>, _ h: Double) -> (SIMD3<Double>, SIMD3<Double>) {
    let k1v = acceleration(v), k1p = v
    let k2v = acceleration(v + 0.5 * h * k1v), k2p = v + 0.5 * h * k1v
    let k3v = acceleration(v + 0.5 * h * k2v), k3p = v + 0.5 * h * k2v
    let k4v = acceleration(v + h * k3v), k4p = v + h * k3v
    return (h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p), h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v))
  }

  /// Positions at `times` (seconds relative to the state's time), from one integration pass.
  public func positions(from p0: SIMD3<Double>, _ v0: SIMD3<Double>, at times: [Double]) -> [SIMD3<Double>] {
    positions(from: p0, v0, at: times, order: Self.timeOrder(times), shiftedBy: nil).positions
  }

  /// The indices of `times` in ascending order of time, as `positions(from:_:at:)` visits them.
  static func timeOrder(_ times: [Double]) -> [Int] { times.indices.sorted { times[$0] < times[$1] } }

  /// `positions(from:_:at:)` with the visiting order given and, when `shift` is set, also the flights
  /// that start `shift` metres further along each axis: lane k of `shifted[i]` is the k-th coordinate
  /// at `times[i]` of the flight from `p0 + shift·e_k`. Its other coordinates are those of `positions[i]`,
  /// bit for bit, because a step's increments do not depend on the position; so a finite-difference
  /// Jacobian in the start position needs no integration of its own, and its values are exactly those
  /// of integrating each shifted start (the same additions in the same order).
  func positions(
    from p0: SIMD3<Double>, _ v0: SIMD3<Double>, at times: [Double], order: [Int], shiftedBy shift: Double?
  ) -> (positions: [SIMD3<Double>], shifted: [SIMD3<Double>]) {
    // Integrate forward and backward from t = 0 in sorted order, reusing the state.
    var out = [SIMD3<Double>](repeating: .zero, count: times.count)
    var shifted = [SIMD3<Double>](repeating: .zero, count: shift == nil ? 0 : times.count)
    let start = p0 + SIMD3(repeating: shift ?? 0)
    for forward in [true, false] {
      var t = 0.0, p = p0, v = v0, ps = start
      for j in order.indices {
        let i = forward ? order[j] : order[order.count - 1 - j]
        guard (times[i] >= 0) == forward else { continue }
        let (n, h) = Self.steps(times[i] - t, Self.integrationStep)
        for _ in 0..<n {
          let (dp, dv) = increments(v, h)
          p += dp
          v += dv
          if shift != nil { ps += dp }
        }
        t = times[i]
        out[i] = p
        if shift != nil { shifted[i] = ps }
      }
    }
    return (out, shifted)
  }
}
