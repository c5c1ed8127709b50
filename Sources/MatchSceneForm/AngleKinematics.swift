import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The angles of `FormAngle` from one frame's `BodyPoints` (conventions documented there), degrees.
/// A degenerate segment (zero length) gives NaN.
///
/// Computed in independent parts — each elbow, the shoulders (thorax frame and upper arms: angles 2–5),
/// the hips (level pelvis), each knee and the trunk (10–11) — so that `AngleUncertainty` recomputes only
/// the parts a perturbed keypoint enters.
public enum AngleKinematics {
  static let degrees = 180 / Double.pi
  static let up = SIMD3<Double>(0, 0, 1)

  /// The parts and the keypoints (`BodyPoints.roles` indices) each depends on: as fine as the angles
  /// allow, so that a perturbed keypoint recomputes only the angles it enters.
  enum Part: CaseIterable {
    case leftElbow, rightElbow, shoulders, hips, leftKnee, rightKnee, trunk
    var keypoints: Set<Int> {
      switch self {
      case .leftElbow: [0, 2, 4]
      case .rightElbow: [1, 3, 5]
      // The thorax frame (shoulders and hips) and the upper arms.
      case .shoulders: [0, 1, 2, 3, 6, 7]
      case .hips: [6, 7, 8, 9]
      case .leftKnee: [6, 8, 10]
      case .rightKnee: [7, 9, 11]
      case .trunk: [0, 1, 6, 7]
      }
    }
    var angles: Range<Int> {
      switch self {
      case .leftElbow: 0..<1
      case .rightElbow: 1..<2
      case .shoulders: 2..<6
      case .hips: 6..<8
      case .leftKnee: 8..<9
      case .rightKnee: 9..<10
      case .trunk: 10..<12
      }
    }
  }

  /// Every `FormAngle`, in `FormAngle.allCases` order.
  public static func angles(_ b: BodyPoints) -> [Double] {
    var out = [Double](repeating: .nan, count: FormAngle.allCases.count)
    fill(b.array, into: &out)
    return out
  }

  /// Writes every `FormAngle` into `out` from the 12 points `p` in `BodyPoints.roles` order.
  static func fill(_ p: [SIMD3<Double>], into out: inout [Double]) {
    for part in Part.allCases { fill(part, p, into: &out) }
  }

  static func fill(_ part: Part, _ p: [SIMD3<Double>], into out: inout [Double]) {
    let lS = p[0], rS = p[1], lE = p[2], rE = p[3], lW = p[4], rW = p[5]
    let lH = p[6], rH = p[7], lK = p[8], rK = p[9], lA = p[10], rA = p[11]
    switch part {
    case .leftElbow:
      out[0] = flexion(lS, lE, lW)
    case .rightElbow:
      out[1] = flexion(rS, rE, rW)
    case .shoulders:
      // Thorax (Wu et al. 2005 §2.3.2): Y up the trunk, Z to the right, X forward.
      let ty = unit(0.5 * (lS + rS) - 0.5 * (lH + rH))
      let tz = unit(orthogonal(rS - lS, to: ty))
      let tx = cross(ty, tz)
      let hl = unit(lE - lS), hr = unit(rE - rS)
      out[2] = acos(clamp(dot(-hl, ty))) * degrees
      out[3] = acos(clamp(dot(-hr, ty))) * degrees
      out[4] = atan2(dot(hl, tx), -dot(hl, tz)) * degrees
      out[5] = atan2(dot(hr, tx), dot(hr, tz)) * degrees
    case .hips:
      // Level pelvis (Wu et al. 2002 §3.3.1 with the pelvis tilt unknown): Z right, Y up, X forward.
      let pz = unit(orthogonal(rH - lH, to: up))
      let py = unit(orthogonal(up, to: pz))
      let px = cross(py, pz)
      let thighL = lK - lH, thighR = rK - rH
      out[6] = atan2(dot(thighL, px), -dot(thighL, py)) * degrees
      out[7] = atan2(dot(thighR, px), -dot(thighR, py)) * degrees
    case .leftKnee:
      out[8] = flexion(lH, lK, lA)
    case .rightKnee:
      out[9] = flexion(rH, rK, rA)
    case .trunk:
      let trunk = 0.5 * (lS + rS) - 0.5 * (lH + rH)
      let pz = unit(orthogonal(rH - lH, to: up))
      let px = cross(unit(orthogonal(up, to: pz)), pz)
      out[10] = atan2(dot(trunk, px), dot(trunk, up)) * degrees
      let ty = unit(trunk)
      let hipLine = orthogonal(rH - lH, to: ty)
      let shoulderLine = orthogonal(rS - lS, to: ty)
      out[11] = atan2(dot(cross(hipLine, shoulderLine), ty), dot(hipLine, shoulderLine)) * degrees
    }
  }

  /// 180° minus the angle at `b` between `a` and `c`: 0° for a straight limb.
  static func flexion(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
    let u = a - b, v = c - b
    // atan2 of |u×v| and u·v: accurate near 0° and 180°, unlike acos.
    let inner = atan2(length(cross(u, v)), dot(u, v))
    let n = length(u) * length(v)
    return n > 0 ? 180 - inner * degrees : .nan
  }

  /// NaN stays NaN (a missing keypoint must not read as 180°).
  @inline(__always) static func clamp(_ x: Double) -> Double { x.isNaN ? x : min(1, max(-1, x)) }
  @inline(__always) static func unit(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let n = length(v)
    return n > 0 ? v / n : SIMD3(repeating: .nan)
  }
  @inline(__always) static func orthogonal(_ v: SIMD3<Double>, to axis: SIMD3<Double>) -> SIMD3<Double> {
    v - dot(v, axis) * axis
  }
}
