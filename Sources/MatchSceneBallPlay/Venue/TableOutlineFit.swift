import MatchSceneCore

/// The table's heading and centre in a levelled plane, from where the ball bounced on it.
///
/// The bounces lie inside the table's outline, `length` × `width`, and a bounce followed by one on the
/// other half (the next stroke's, or the serve's second) lies across the net from it. The estimate is
/// the tightest box: the heading that makes the bounces' bounding box smallest (length plus width: the
/// enclosing rectangle of least perimeter, which has a side on the convex hull — Toussaint, "Solving
/// geometric problems with the rotating calipers", IEEE MELECON 1983; a scan of headings in steps of
/// `step` finds it), and the centre midway between the extreme bounces across and along — the centre
/// of a uniform distribution's support estimated by its midrange, which assumes play that reaches both
/// sides and both ends alike — kept where the net still separates the bounces on opposite halves.
/// The table's size only bounds the search (the heading's span); where the bounces stay well inside
/// the edges the box leaves the heading free by degrees.
struct TableOutlineFit: Sendable {
  var length: Double
  var width: Double
  var ballRadius: Double
  /// Headings are searched this far either side of the initial guess, degrees, in steps of `step`.
  var span = 25.0
  var step = 0.02

  struct Result {
    /// Radians from the levelled frame's x axis to the table's long axis, in (−π/2, π/2].
    var heading: Double
    /// The table's centre in the levelled plane.
    var centre: SIMD2<Double>
    /// Bounding box of the bounces along and across the table, metres.
    var extent: SIMD2<Double>
  }

  /// - Parameters:
  ///   - bounces: table bounces in the levelled plane, in time order.
  ///   - opposite: index pairs (i, i + 1) of bounces expected on opposite halves.
  func fit(_ bounces: [SIMD2<Double>], opposite: [(Int, Int)]) -> Result? {
    guard bounces.count >= 3 else { return nil }
    let initial = initialHeading(bounces, opposite: opposite)
    var best: (score: Double, heading: Double)? = nil
    var theta = initial - span * Double.pi / 180
    while theta <= initial + span * Double.pi / 180 {
      let (along, across) = project(bounces, heading: theta)
      let score = (along.max()! - along.min()!) + (across.max()! - across.min()!)
      if best == nil || score < best!.score { best = (score, theta) }
      theta += step * Double.pi / 180
    }
    var heading = best!.heading
    // The long axis up to its sign: keep it within ±90° of the levelled x axis.
    while heading > Double.pi / 2 { heading -= Double.pi }
    while heading <= -Double.pi / 2 { heading += Double.pi }
    let (along, across) = project(bounces, heading: heading)
    let axis = SIMD2(cos(heading), sin(heading)), normal = SIMD2(-sin(heading), cos(heading))
    var centreAlong = (along.max()! + along.min()!) / 2
    // Kept where the net still separates every pair on opposite halves, when some place does.
    if !opposite.isEmpty {
      let lo = opposite.map { min(along[$0.0], along[$0.1]) }.max()!, hi = opposite.map { max(along[$0.0], along[$0.1]) }.min()!
      if lo < hi { centreAlong = min(max(centreAlong, lo), hi) }
    }
    let centreAcross = (across.max()! + across.min()!) / 2
    return Result(
      heading: heading, centre: centreAlong * axis + centreAcross * normal,
      extent: SIMD2(along.max()! - along.min()!, across.max()! - across.min()!))
  }

  /// Where a contact with the net puts the net along a long axis at `heading`: one ball radius beyond
  /// the ball's centre, in the direction it was moving (`velocity`, horizontal).
  func netPlace(_ position: SIMD2<Double>, velocity: SIMD2<Double>, heading: Double) -> Double {
    let axis = SIMD2(cos(heading), sin(heading))
    return (position * axis).sum() + ((velocity * axis).sum() > 0 ? ballRadius : -ballRadius)
  }

  /// Coordinates along and across a long axis at `heading` radians.
  func project(_ points: [SIMD2<Double>], heading: Double) -> (along: [Double], across: [Double]) {
    let c = cos(heading), s = sin(heading)
    return (points.map { c * $0.x + s * $0.y }, points.map { -s * $0.x + c * $0.y })
  }

  /// The dominant direction of play: the principal axis of the steps between bounces on opposite
  /// halves (rallies run along the table), or of the bounces themselves when there are no such steps.
  func initialHeading(_ bounces: [SIMD2<Double>], opposite: [(Int, Int)]) -> Double {
    var steps = opposite.map { bounces[$0.1] - bounces[$0.0] }
    if steps.count < 2 {
      let mean = bounces.reduce(SIMD2<Double>.zero, +) / Double(bounces.count)
      steps = bounces.map { $0 - mean }
    }
    var sxx = 0.0, sxy = 0.0, syy = 0.0
    for d in steps {
      sxx += d.x * d.x
      sxy += d.x * d.y
      syy += d.y * d.y
    }
    // The principal eigenvector of the 2×2 second moment.
    return 0.5 * atan2(2 * sxy, sxx - syy)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
