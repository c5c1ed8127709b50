import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A person strolling around a closed, racetrack-shaped path along one side of the hall, outside the
/// playing area and near the cameras, so that only some cameras see them (track `B1`). With
/// `crossing` the loop is turned to run across the hall instead, its near leg passing about a metre
/// behind one end of the table — right behind that player, whose path it crosses (a test of identity
/// tracking: two people pass within half a metre of each other).
///
/// Gait: alternating stance (60 % of the cycle, foot planted) and swing (40 %, foot lifted up to 7 cm)
/// phases, the walking cycle of Perry & Burnfield, *Gait Analysis*, 2nd ed. (2010), ch. 1; the arms swing
/// opposite to the legs; the pelvis drops as far as needed for both legs to reach their feet.
struct BystanderAnimator {
  let dims: BodyDimensions
  /// Centre line of the straight parts, y; the loop turns away from the table at both ends.
  let lineY: Double
  let halfLength: Double
  let turnRadius: Double
  let speed: Double
  let stride: Double
  let startDistance: Double
  /// The loop runs along y (across the hall) at x = `lineY`, behind one end of the table.
  let crossing: Bool

  /// - Parameters:
  ///   - crossing: walk across the hall behind one player instead of along its side.
  ///   - tableHalfLength: half the table's length, metres (where the players stand with `crossing`).
  init(rng: inout SeededGenerator, crossing: Bool = false, tableHalfLength: Double = 1.37) {
    dims = BodyDimensions(height: rng.uniform(1.65...1.85))
    self.crossing = crossing
    // The same draws either way: the rest of the bystander's stream is unchanged by `crossing`.
    let sign: Double = rng.chance(0.5) ? 1 : -1
    let distance = rng.uniform(3.2...3.7)
    let length = rng.uniform(4.0...5.0)
    if crossing {
      // 0.95–1.25 m behind the end line: a player's pelvis stands 0.3–0.9 m behind it.
      lineY = sign * (tableHalfLength + 0.95 + 0.3 * (distance - 3.2) / 0.5)
      halfLength = 0.6 * length
    } else {
      lineY = sign * distance
      halfLength = length
    }
    turnRadius = 0.6
    speed = rng.uniform(0.8...1.0)
    stride = 1.0
    startDistance = rng.uniform(0...(4 * halfLength + 2 * Double.pi * turnRadius))
  }

  var loopLength: Double { 4 * halfLength + 2 * Double.pi * turnRadius }

  /// Point and unit heading of the loop at arc length `s` (world x, y).
  func path(_ s: Double) -> (point: SIMD2<Double>, heading: SIMD2<Double>) {
    let (p, d) = loopPath(s)
    // Across the hall: the loop's own frame with its axes exchanged (the loop runs mirrored, which
    // changes nothing of the walk).
    return crossing ? (SIMD2(p.y, p.x), SIMD2(d.y, d.x)) : (p, d)
  }

  /// Point and unit heading at arc length `s` in the loop's own frame (straight legs along x).
  func loopPath(_ s: Double) -> (point: SIMD2<Double>, heading: SIMD2<Double>) {
    let away: Double = lineY >= 0 ? 1 : -1  // the return leg is further from the table
    var u = s.truncatingRemainder(dividingBy: loopLength)
    if u < 0 { u += loopLength }
    let straight = 2 * halfLength
    let arc = Double.pi * turnRadius
    if u < straight { return (SIMD2(-halfLength + u, lineY), SIMD2(1, 0)) }
    u -= straight
    if u < arc {
      // Turn at +x end, centre (halfLength, lineY + away·ρ).
      let a = u / turnRadius
      let c = SIMD2(halfLength, lineY + away * turnRadius)
      return (c + turnRadius * SIMD2(sin(a), -away * cos(a)), SIMD2(cos(a), away * sin(a)))
    }
    u -= arc
    if u < straight { return (SIMD2(halfLength - u, lineY + 2 * away * turnRadius), SIMD2(-1, 0)) }
    u -= straight
    let a = u / turnRadius
    let c = SIMD2(-halfLength, lineY + away * turnRadius)
    return (c + turnRadius * SIMD2(-sin(a), away * cos(a)), SIMD2(-cos(a), -away * sin(a)))
  }

  /// The 17 COCO keypoints at time `t`.
  func joints(at t: Double) -> [SIMD3<Double>] {
    let s = startDistance + speed * t
    let (centre, dir) = path(s)
    let heading = atan2(dir.y, dir.x)
    func foot(_ leg: Int) -> SIMD3<Double> {
      let offset = 0.5 * Double(leg)
      let u = s / stride + offset
      let k = u.rounded(.down)
      let fraction = u - k
      var arc = (k - offset + 0.3) * stride
      var lift = 0.0
      if fraction >= 0.6 {
        let w = (fraction - 0.6) / 0.4
        arc += stride * w * w * (3 - 2 * w)
        lift = 0.07 * sin(Double.pi * w)
      }
      let (p, d) = path(arc)
      let side = leg == 0 ? 1.0 : -1.0  // left foot on the left of the walking direction
      let lateral = 0.09 * side * SIMD2(-d.y, d.x)
      return SIMD3(p.x + lateral.x, p.y + lateral.y, dims.ankleHeight + lift)
    }
    let leftAnkle = foot(0), rightAnkle = foot(1)
    let lean = 0.04
    let flat = BodyKinematics.torso(dims, pelvis: SIMD3(centre.x, centre.y, 0), heading: heading, rotation: 0, lean: lean)
    let leg = 0.995 * dims.legLength
    var z = dims.ankleHeight + 0.985 * dims.legLength
    for (hip, ankle) in [(flat.leftHip, leftAnkle), (flat.rightHip, rightAnkle)] {
      let dx = hip.x - ankle.x, dy = hip.y - ankle.y, dz = ankle.z
      z = min(z, dz + max(0, leg * leg - dx * dx - dy * dy).squareRoot())
    }
    let pelvis = SIMD3(centre.x, centre.y, z)
    let torso = BodyKinematics.torso(dims, pelvis: pelvis, heading: heading, rotation: 0, lean: lean)
    let phase = 2 * Double.pi * s / stride
    let swing = 0.12 * dims.height / 1.75
    func hand(_ shoulder: SIMD3<Double>, _ sign: Double, _ outward: SIMD3<Double>) -> SIMD3<Double> {
      let fwd = sign * swing * cos(phase)
      let out = 0.06
      let down = max(0, (0.95 * dims.armReach) * (0.95 * dims.armReach) - fwd * fwd - out * out).squareRoot()
      return shoulder + fwd * torso.pelvisForward + out * outward - SIMD3(0, 0, down)
    }
    let forward = SIMD3(cos(heading), sin(heading), 0)
    return BodyKinematics.joints(
      dims,
      BodyPose(
        pelvis: pelvis, heading: heading, rotation: 0, lean: lean, lookAt: pelvis + 5 * forward + SIMD3(0, 0, 0.6),
        leftWrist: hand(torso.leftShoulder, -1, torso.left), rightWrist: hand(torso.rightShoulder, 1, -torso.left),
        leftAnkle: leftAnkle, rightAnkle: rightAnkle))
  }
}
