import MatchSceneCore

/// The surfaces a ball cannot pass through: the floor (z = 0, every sport) and, when there is one, the
/// table top and the net (ITTF Handbook 2.1, 2.2: a rectangle `length` × `width` at `surfaceHeight`,
/// the net across it at x = 0, `netHeight` tall, overhanging each side line by 15.25 cm).
///
/// A fitted flight whose path dips into one of them between its observations spans a contact — a
/// bounce too small to break the prediction gate (a ball settling, a ball dropping off the net) — and
/// a flight that runs into one just after its last observation met it there.
public struct BallSurfaces: Sendable, Equatable {
  public var ballRadius: Double
  public var table: TableGeometry?
  /// How far the net reaches beyond each side line, metres (ITTF 2.2.2: 15.25 cm).
  public var netOverhang = 0.1525
  /// Thickness below the table top within which a ball's centre counts as inside the top, metres (a ball
  /// lower than this is under the table, not in it).
  public var tableSlab = 0.1

  public init(ballRadius: Double, table: TableGeometry? = nil) {
    self.ballRadius = ballRadius
    self.table = table
  }

  /// Whether (x, y) lies over the table top.
  public func isOverTable(_ p: SIMD3<Double>) -> Bool {
    guard let table else { return false }
    return abs(p.x) <= table.length / 2 && abs(p.y) <= table.width / 2
  }

  /// The height of the ball's centre resting on the surface under `p`: the table top over the table,
  /// the floor elsewhere.
  public func restingHeight(under p: SIMD3<Double>) -> Double {
    if let table, isOverTable(p), p.z > table.surfaceHeight - tableSlab { return table.surfaceHeight + ballRadius }
    return ballRadius
  }

  /// How deep the ball's centre at `p` lies inside the surface under it, metres; 0 or less when clear.
  public func penetration(_ p: SIMD3<Double>) -> Double { restingHeight(under: p) - p.z }

  /// Whether a ball whose centre is at `p` as it reaches the net's plane (x = 0) hits the net: below its
  /// top, above the table, within its width with the overhang.
  public func isNetHeight(_ p: SIMD3<Double>) -> Bool {
    guard let table else { return false }
    return p.z <= table.surfaceHeight + table.netHeight + ballRadius && p.z >= table.surfaceHeight
      && abs(p.y) <= table.width / 2 + netOverhang
  }
}
