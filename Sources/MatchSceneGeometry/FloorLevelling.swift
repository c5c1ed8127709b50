import MatchSceneCore

/// The rigid change of world frame that puts floor contacts on z = 0 while moving a rig's cameras as
/// little as possible: a choice of gauge, which leaves every projection as it is.
///
/// A bundle adjustment fixes the world only up to a similarity (Triggs et al. 2000, §9); after a
/// refinement the frame is held by the given cameras (`CalibrationRefinementOptions.holdWorldFrame`).
/// Where standing people's resting feet disagree with that frame's floor (a calibration fitted to one
/// part of the venue, 1° of tilt being 10 cm at 6 m), this finds the tilt about the two horizontal axes
/// and the translation that minimise the anchors' displacement Σ |Δa|² subject to every contact's
/// height being zero (a stiff penalty, weight `contactWeight`; Gauss–Newton on the small-angle model
/// Δp = ω × p + τ with ω = (ωx, ωy, 0), iterated to the exact rotation).
public enum FloorLevelling {
  /// Weight of a contact's squared height against one anchor's squared displacement: large, so that
  /// the contacts are met and the anchors decide only what they leave free.
  public static let contactWeight = 1e4

  /// The anchors of `cameras`: each centre and the point `lever` metres along its optical axis, so that
  /// turning a camera costs as much as moving it by the scene's distance.
  public static func anchors(_ cameras: [Camera], lever: Double) -> [SIMD3<Double>] {
    cameras.flatMap { [$0.center, $0.center + lever * $0.camFromWorld.rotation.row(2)] }
  }

  /// `newWorldFromWorld`: x' = R x + t, R a tilt about horizontal axes only (the heading is kept).
  /// - Parameters:
  ///   - contacts: points that lie on the floor, world frame.
  ///   - weights: one per contact (e.g. its foot-frames), > 0.
  ///   - anchors: points whose displacement is minimised (`anchors(_:lever:)`).
  /// - Returns: nil without contacts, with fewer than two anchors, or when the system is singular.
  public static func transform(contacts: [SIMD3<Double>], weights: [Double], anchors: [SIMD3<Double>]) -> RigidTransform? {
    guard !contacts.isEmpty, contacts.count == weights.count, anchors.count >= 2 else { return nil }
    let total = weights.reduce(0, +)
    guard total > 0 else { return nil }
    var current = RigidTransform.identity
    for _ in 0..<4 {
      let c = contacts.map { current.apply($0) }
      let a = anchors.map { current.apply($0) }
      // Unknowns (ωx, ωy, τx, τy, τz). Anchor rows: Δ = [[0, z, 1, 0, 0], [−z, 0, 0, 1, 0], [y, −x, 0, 0, 1]] x.
      var h = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 5)
      func add(_ row: [Double], _ rhs: Double, _ w: Double) {
        for i in 0..<5 {
          for j in 0..<5 { h[i][j] += w * row[i] * row[j] }
          h[i][5] += w * row[i] * rhs
        }
      }
      // Anchors pull toward no change from where they started (the rig as held).
      for (p, p0) in zip(a, anchors) {
        let d = p - p0
        add([0, p.z, 1, 0, 0], -d.x, 1)
        add([-p.z, 0, 0, 1, 0], -d.y, 1)
        add([p.y, -p.x, 0, 0, 1], -d.z, 1)
      }
      for (p, w) in zip(c, weights) { add([p.y, -p.x, 0, 0, 1], -p.z, contactWeight * Double(anchors.count) * w / total) }
      for i in 0..<5 { h[i][i] += 1e-12 }
      guard let x = PlanarTargetPose.solve(h) else { return nil }
      let step = RigidTransform(rotation: .rodrigues(SIMD3(x[0], x[1], 0)), translation: SIMD3(x[2], x[3], x[4]))
      current = step * current
      if abs(x[0]) + abs(x[1]) < 1e-12, length(SIMD3(x[2], x[3], x[4])) < 1e-9 { break }
    }
    return current
  }
}
