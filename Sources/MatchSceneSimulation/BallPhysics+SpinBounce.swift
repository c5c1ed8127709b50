import MatchSceneCore

extension BallPhysics {
  /// The bounce of a spinning ball on a horizontal surface: the velocity and angular velocity just
  /// after it, from those just before (`velocity`, `spin`, rad/s).
  ///
  /// The normal velocity is reversed times the restitution `restitution`. Tangentially, a rigid
  /// thin-shell ball (I = ⅔ m r²) receives the friction impulse of Nakashima et al., "Modeling of rebound
  /// phenomenon of a rigid ball with friction and elastic effects" (ACC 2010): J/m = −min(μ (1 + e)
  /// |v_n|, ⅖ |u|) û, with u = v_t + ω × (−r ẑ) the velocity of the contact point — sliding friction,
  /// or the impulse that stops the contact point (rolling) when that is smaller — and the spin changes
  /// by Δω = −(3 / 2r) ẑ × J/m. The tangential velocity keeps the asset's fraction `keep` as a spinless
  /// ball does, plus the part of the friction impulse that the spin causes (J(u) − J(v_t)), so that a
  /// ball with no spin bounces exactly as before.
  func spinBounce(
    _ velocity: SIMD3<Double>, spin: SIMD3<Double>, restitution e: Double, keep: Double
  ) -> (velocity: SIMD3<Double>, spin: SIMD3<Double>) {
    let r = ball.radius
    let normalSpeed = abs(velocity.z)
    let tangential = SIMD3(velocity.x, velocity.y, 0)
    let up = SIMD3<Double>(0, 0, 1)
    func impulse(_ u: SIMD3<Double>) -> SIMD3<Double> {
      let speed = length(u)
      guard speed > 0 else { return .zero }
      return -min(friction * (1 + e) * normalSpeed, 0.4 * speed) / speed * u
    }
    let contactPoint = tangential + cross(spin, -r * up)
    let j = impulse(contactPoint)
    let after = keep * tangential + j - impulse(tangential) + SIMD3(0, 0, -e * velocity.z)
    return (after, spin - 1.5 / r * cross(up, j))
  }
}
