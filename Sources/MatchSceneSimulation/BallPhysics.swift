import MatchSceneAssets
import MatchSceneCore

/// Flight and contact model of a table-tennis ball: gravity, quadratic air drag and the Magnus force
/// of its spin in flight (`a = g − k_D |v| v + k_M ω × v`, `k_D = ρ C_d A / 2m`, `k_M = ρ C_M A r / 2m`,
/// ω constant in flight: Nakashima et al., "Modeling of rebound phenomenon of a rigid ball with friction
/// and elastic effects", ACC 2010), impulsive bounces on the table top and the floor (a spinning ball's
/// by Coulomb friction at the contact point, `spinBounce`), a net that stops the ball and its spin,
/// and rolling with constant deceleration.
///
/// Integration is the classical fourth-order Runge–Kutta method (Hairer, Nørsett & Wanner, *Solving
/// Ordinary Differential Equations I*, §II.1), exact for the drag-free parabola. Contacts are located
/// inside a step by bisection on the step length, so their time and position are resolved to about
/// 1e-12 s whatever the step. Every constant and dimension comes from the sport asset.
public struct BallPhysics: Sendable, Equatable {
  /// Ball constants (radius, drag, restitution, rolling) from the sport asset.
  public var ball: BallSpec
  /// Playing surface: length (x), width (y), height of the top (z), net height and overhang.
  public var tableLength: Double
  public var tableWidth: Double
  public var surfaceHeight: Double
  public var netHeight: Double
  public var netOverhang: Double
  /// Half the floor area around the table, x and y; a ball beyond it has left the playing area.
  public var floorHalfLength: Double
  public var floorHalfWidth: Double
  /// Normal restitution of the net. A net is a soft mesh that absorbs nearly all of a ball's speed;
  /// the asset has no constant for it, so a measured-looking value lives here.
  public var netRestitution: Double = 0.1
  /// Fraction of the tangential speed kept when the ball hits the net.
  public var netTangentialKeep: Double = 0.3
  /// Speed, m/s, below which a rolling ball counts as at rest.
  public var restSpeed: Double = 0.01
  /// Quadratic drag constant k, 1/m, from the asset (`BallSpec.dragPerMetre`); set 0 to switch drag off.
  public var drag: Double
  /// Magnus constant k_M (acceleration per unit of ω × v, ω in rad/s), from the asset's
  /// `magnus_coefficient`.
  public var magnus: Double
  /// Coulomb friction between a spinning ball and the table top or floor (asset `friction_table`).
  public var friction: Double

  /// The physics of `sport`'s ball and table. - Throws: `InputError` when a dimension is missing.
  public init(sport: SportSpec) throws {
    ball = sport.ball
    drag = sport.ball.dragPerMetre
    let radius = sport.ball.radius
    magnus = sport.ball.airDensity * sport.ball.magnusCoefficient * Double.pi * radius * radius * radius / (2 * sport.ball.mass)
    friction = sport.ball.frictionTable
    let v = sport.venue
    tableLength = try v.dimension("length", file: sport.id)
    tableWidth = try v.dimension("width", file: sport.id)
    surfaceHeight = try v.dimension("surface_height", file: sport.id)
    netHeight = try v.dimension("net_height", file: sport.id)
    netOverhang = try v.dimension("net_overhang", file: sport.id)
    floorHalfLength = try v.dimension("floor_length", file: sport.id) / 2
    floorHalfWidth = try v.dimension("floor_width", file: sport.id) / 2
  }


  /// Height of the ball's centre when it lies on the table.
  public var tableContactHeight: Double { surfaceHeight + ball.radius }

  /// Whether a ball centre at `p` is above the table's outline (edges included).
  public func isOverTable(_ p: SIMD3<Double>) -> Bool {
    abs(p.x) <= tableLength / 2 && abs(p.y) <= tableWidth / 2
  }

  /// Whether `p` lies inside the playing area (the venue's floor).
  public func isInsideArea(_ p: SIMD3<Double>) -> Bool {
    abs(p.x) <= floorHalfLength && abs(p.y) <= floorHalfWidth
  }

  /// Acceleration in flight of a ball spinning at `spin` (rad/s; zero: no Magnus term at all).
  @inline(__always) public func acceleration(_ velocity: SIMD3<Double>, spin: SIMD3<Double> = .zero) -> SIMD3<Double> {
    let speed = length(velocity)
    if spin == .zero { return SIMD3(0, 0, -ball.gravity) - drag * speed * velocity }
    return SIMD3(0, 0, -ball.gravity) - drag * speed * velocity + magnus * cross(spin, velocity)
  }

  /// One classical RK4 step of free flight of length `h` (no contact), spinning at `spin`.
  @inline(__always) public func step(
    _ position: SIMD3<Double>, _ velocity: SIMD3<Double>, _ h: Double, spin: SIMD3<Double> = .zero
  ) -> (position: SIMD3<Double>, velocity: SIMD3<Double>) {
    let k1v = acceleration(velocity, spin: spin), k1x = velocity
    let v2 = velocity + 0.5 * h * k1v
    let k2v = acceleration(v2, spin: spin), k2x = v2
    let v3 = velocity + 0.5 * h * k2v
    let k3v = acceleration(v3, spin: spin), k3x = v3
    let v4 = velocity + h * k3v
    let k4v = acceleration(v4, spin: spin), k4x = v4
    return (
      position + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x),
      velocity + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    )
  }

  /// Finds the first root of `g` along one free-flight step that starts with `g > 0` and ends with
  /// `g ≤ 0`, by bisection on the step length (g evaluated on the RK4 sub-step from the start).
  /// - Returns: the sub-step length τ ∈ (0, h] and the state there.
  func bisect(
    _ p: SIMD3<Double>, _ v: SIMD3<Double>, _ h: Double, spin: SIMD3<Double> = .zero, _ g: (SIMD3<Double>) -> Double
  ) -> (tau: Double, position: SIMD3<Double>, velocity: SIMD3<Double>) {
    var lo = 0.0, hi = h
    for _ in 0..<64 {
      let mid = 0.5 * (lo + hi)
      if mid <= lo || mid >= hi { break }
      if g(step(p, v, mid, spin: spin).position) > 0 { lo = mid } else { hi = mid }
    }
    let s = step(p, v, hi, spin: spin)
    return (hi, s.position, s.velocity)
  }
}

/// What the ball is doing.
public enum BallMode: Sendable, Equatable {
  case flying
  /// Rolling on a surface: `table` or `floor`.
  case rolling(onTable: Bool)
  case resting
}

/// Position, velocity and mode of the ball at one instant.
public struct BallState: Sendable, Equatable {
  public var position: SIMD3<Double>
  public var velocity: SIMD3<Double>
  public var mode: BallMode
  /// Angular velocity, rad/s (zero while rolling or resting: a rolling ball's spin exerts no force).
  public var spin: SIMD3<Double>
  public init(position: SIMD3<Double>, velocity: SIMD3<Double>, mode: BallMode = .flying, spin: SIMD3<Double> = .zero) {
    self.position = position
    self.velocity = velocity
    self.mode = mode
    self.spin = spin
  }
}

/// A contact of the ball with the table, the floor or the net, or the moment it came to rest.
public struct BallContact: Sendable, Equatable {
  public enum Kind: Sendable, Equatable { case table, floor, net, rest }
  public var kind: Kind
  /// Seconds since the start of the `advance` call's step (callers add their clock).
  public var time: Double
  /// Ball centre at the contact.
  public var position: SIMD3<Double>
  /// Velocity just after the contact.
  public var velocityAfter: SIMD3<Double>
  /// Velocity just before the contact.
  public var velocityBefore: SIMD3<Double>
  /// Angular velocity just after the contact, rad/s.
  public var spinAfter: SIMD3<Double> = .zero
}

extension BallPhysics {
  /// Advances `state` by `h` seconds, resolving every contact inside the step.
  ///
  /// A bounce reverses the normal velocity times the surface's restitution and keeps the tangential
  /// fraction from the asset; when the rebound's normal speed is below `rest_normal_speed` the ball
  /// rolls instead, decelerating at `rolling_deceleration` (also on the table, where it may roll off an
  /// edge or into the net), and it rests once slower than `restSpeed`. The net (x = 0, |y| ≤ width/2 +
  /// overhang, from the table top to net height) reflects the ball with `netRestitution`.
  /// - Returns: the contacts in time order, `time` measured from the start of the step.
  public func advance(_ state: inout BallState, by h: Double) -> [BallContact] {
    var contacts: [BallContact] = []
    var elapsed = 0.0
    var guardCount = 0
    while elapsed < h, guardCount < 64 {
      guardCount += 1
      let remaining = h - elapsed
      switch state.mode {
      case .resting:
        state.velocity = .zero
        return contacts
      case .rolling(let onTable):
        if let used = roll(&state, onTable: onTable, for: remaining, at: elapsed, contacts: &contacts) {
          elapsed += used
        } else {
          elapsed = h
        }
      case .flying:
        if let used = fly(&state, for: remaining, at: elapsed, contacts: &contacts) {
          elapsed += used
        } else {
          elapsed = h
        }
      }
    }
    return contacts
  }

  /// Free flight for at most `h`; nil when no contact happened (state advanced by `h`), else the time
  /// used up to and including the first contact.
  private func fly(
    _ state: inout BallState, for h: Double, at clock: Double, contacts: inout [BallContact]
  ) -> Double? {
    let p = state.position, v = state.velocity, spin = state.spin
    let end = step(p, v, h, spin: spin)
    let r = ball.radius
    let top = surfaceHeight + r
    var best: (tau: Double, position: SIMD3<Double>, velocity: SIMD3<Double>, kind: BallContact.Kind)?

    // Table top: crossing z = top + r downwards above the outline.
    if p.z - top >= -1e-12, end.position.z - top < 0, v.z < 0 || end.velocity.z < 0 {
      let hit = bisect(p, v, h, spin: spin) { $0.z - top }
      if isOverTable(hit.position) { best = (hit.tau, hit.position, hit.velocity, .table) }
    }
    // Floor.
    if p.z - r >= -1e-12, end.position.z - r < 0 {
      let hit = bisect(p, v, h, spin: spin) { $0.z - r }
      if best == nil || hit.tau < best!.tau { best = (hit.tau, hit.position, hit.velocity, .floor) }
    }
    // Net: the ball's surface reaches the plane x = 0 from the side it is on.
    let side: Double = p.x >= 0 ? 1 : -1
    if side * p.x - r >= -1e-12, side * end.position.x - r < 0 {
      let hit = bisect(p, v, h, spin: spin) { side * $0.x - r }
      let q = hit.position
      if abs(q.y) <= tableWidth / 2 + netOverhang, q.z - r < surfaceHeight + netHeight, q.z > surfaceHeight,
        best == nil || hit.tau < best!.tau
      {
        best = (hit.tau, hit.position, hit.velocity, .net)
      }
    }
    guard let contact = best else {
      state.position = end.position
      state.velocity = end.velocity
      return nil
    }
    var after = contact.velocity
    var position = contact.position
    switch contact.kind {
    case .table, .floor:
      let onTable = contact.kind == .table
      let e = onTable ? ball.restitutionTable : ball.restitutionFloor
      let keep = onTable ? ball.tangentialKeepTable : ball.tangentialKeepFloor
      position.z = onTable ? top : r
      if spin == .zero {
        after = SIMD3(keep * after.x, keep * after.y, -e * after.z)
      } else {
        (after, state.spin) = spinBounce(after, spin: spin, restitution: e, keep: keep)
      }
      if after.z < ball.restNormalSpeed {
        after.z = 0
        state.mode = .rolling(onTable: onTable)
        state.spin = .zero
      }
    case .net:
      position.x = side * r
      after = SIMD3(-netRestitution * after.x, netTangentialKeep * after.y, netTangentialKeep * after.z)
      state.spin = .zero
    case .rest:
      break
    }
    state.position = position
    state.velocity = after
    contacts.append(
      BallContact(
        kind: contact.kind, time: clock + contact.tau, position: position, velocityAfter: after,
        velocityBefore: contact.velocity, spinAfter: state.spin))
    return max(contact.tau, 1e-12)
  }

  /// Rolling on the table or the floor (constant deceleration, exact), for at most `h`. Returns the
  /// time used when the mode changed (rest, rolled off the table, hit the net), else nil.
  private func roll(
    _ state: inout BallState, onTable: Bool, for h: Double, at clock: Double, contacts: inout [BallContact]
  ) -> Double? {
    var v = state.velocity
    v.z = 0
    let speed = length(v)
    let a = ball.rollingDeceleration
    if speed < restSpeed || a <= 0 && speed == 0 {
      state.velocity = .zero
      state.mode = .resting
      contacts.append(
        BallContact(kind: .rest, time: clock, position: state.position, velocityAfter: .zero, velocityBefore: v))
      return 0
    }
    let dir = v / speed
    // Time until the speed drops to `restSpeed`.
    let tRest = a > 0 ? (speed - restSpeed) / a : .infinity
    var tau = min(h, tRest)
    func position(at t: Double) -> SIMD3<Double> { state.position + dir * (speed * t - 0.5 * a * t * t) }
    var event: BallContact.Kind? = tau == tRest ? .rest : nil
    if onTable {
      // Rolling off an edge, or into the net.
      let end = position(at: tau)
      if !isOverTable(end) {
        var lo = 0.0, hi = tau
        for _ in 0..<64 {
          let mid = 0.5 * (lo + hi)
          if isOverTable(position(at: mid)) { lo = mid } else { hi = mid }
        }
        tau = hi
        event = nil
        state.position = position(at: tau)
        state.velocity = dir * (speed - a * tau)
        state.mode = .flying
        return max(tau, 1e-12)
      }
      let side: Double = state.position.x >= 0 ? 1 : -1
      if side * end.x < ball.radius, side * state.position.x >= ball.radius - 1e-12 {
        var lo = 0.0, hi = tau
        for _ in 0..<64 {
          let mid = 0.5 * (lo + hi)
          if side * position(at: mid).x >= ball.radius { lo = mid } else { hi = mid }
        }
        tau = hi
        let before = dir * (speed - a * tau)
        var p = position(at: tau)
        p.x = side * ball.radius
        let after = SIMD3(-netRestitution * before.x, netTangentialKeep * before.y, 0)
        state.position = p
        state.velocity = after
        contacts.append(
          BallContact(kind: .net, time: clock + tau, position: p, velocityAfter: after, velocityBefore: before))
        return max(tau, 1e-12)
      }
    }
    state.position = position(at: tau)
    state.velocity = dir * (speed - a * tau)
    if event == .rest {
      let before = state.velocity
      state.velocity = .zero
      state.mode = .resting
      contacts.append(
        BallContact(kind: .rest, time: clock + tau, position: state.position, velocityAfter: .zero, velocityBefore: before))
      return max(tau, 1e-12)
    }
    return nil
  }
}
