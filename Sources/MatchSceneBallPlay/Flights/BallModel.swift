import MatchSceneCore

/// The ball's free flight: gravity and quadratic air drag, `a = g − k |v| v` (k = ρ C_d A / 2m),
/// integrated with classical 4th-order Runge–Kutta. Spin (Magnus) is not modelled.
public struct BallModel: Sendable, Equatable {
  /// Gravity vector, m/s² (world frame).
  public var gravity: SIMD3<Double>
  /// Drag constant k, 1/m.
  public var drag: Double

  public init(gravity: SIMD3<Double> = SIMD3(0, 0, -9.81), drag: Double) {
    self.gravity = gravity
    self.drag = drag
  }

  public func acceleration(_ v: SIMD3<Double>) -> SIMD3<Double> { gravity - drag * length(v) * v }

  /// State after `dt` seconds from (p, v), in RK4 steps of at most `step` seconds. `dt` may be negative.
  public func advance(_ p: SIMD3<Double>, _ v: SIMD3<Double>, by dt: Double, step: Double = 1.0 / 480) -> (SIMD3<Double>, SIMD3<Double>) {
    let n = max(1, Int((abs(dt) / step).rounded(.up)))
    let h = dt / Double(n)
    var p = p, v = v
    for _ in 0..<n {
      let k1v = acceleration(v), k1p = v
      let k2v = acceleration(v + 0.5 * h * k1v), k2p = v + 0.5 * h * k1v
      let k3v = acceleration(v + 0.5 * h * k2v), k3p = v + 0.5 * h * k2v
      let k4v = acceleration(v + h * k3v), k4p = v + h * k3v
      p += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p)
      v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return (p, v)
  }

  /// Positions at `times` (seconds relative to the state's time), from one integration pass.
  public func positions(from p0: SIMD3<Double>, _ v0: SIMD3<Double>, at times: [Double]) -> [SIMD3<Double>] {
    // Integrate forward and backward from t = 0 in sorted order, reusing the state.
    var out = [SIMD3<Double>](repeating: .zero, count: times.count)
    let order = times.indices.sorted { times[$0] < times[$1] }
    var forward: (t: Double, p: SIMD3<Double>, v: SIMD3<Double>) = (0, p0, v0)
    for i in order where times[i] >= 0 {
      (forward.p, forward.v) = advance(forward.p, forward.v, by: times[i] - forward.t)
      forward.t = times[i]
      out[i] = forward.p
    }
    var backward: (t: Double, p: SIMD3<Double>, v: SIMD3<Double>) = (0, p0, v0)
    for i in order.reversed() where times[i] < 0 {
      (backward.p, backward.v) = advance(backward.p, backward.v, by: times[i] - backward.t)
      backward.t = times[i]
      out[i] = backward.p
    }
    return out
  }
}
