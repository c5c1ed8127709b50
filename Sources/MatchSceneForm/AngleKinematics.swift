import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The angles of `FormAngle` from one frame's `BodyPoints` (conventions documented there), degrees.
/// A degenerate segment (zero length) gives NaN.
public enum AngleKinematics {
  static let degrees = 180 / Double.pi
  static let up = SIMD3<Double>(0, 0, 1)

  /// Every `FormAngle`, in `FormAngle.allCases` order.
  public static func angles(_ b: BodyPoints) -> [Double] {
    var out = [Double](repeating: .nan, count: FormAngle.allCases.count)
    fill(b, into: &out)
    return out
  }

  /// Writes every `FormAngle` into `out` (count `FormAngle.allCases.count`), no allocation.
  static func fill(_ b: BodyPoints, into out: inout [Double]) {
    // Thorax (Wu et al. 2005 §2.3.2): Y up the trunk, Z to the right, X forward.
    let trunk = b.shoulderCentre - b.hipCentre
    let ty = unit(trunk)
    let tz = unit(orthogonal(b.rightShoulder - b.leftShoulder, to: ty))
    let tx = cross(ty, tz)
    // Level pelvis (Wu et al. 2002 §3.3.1 with the pelvis tilt unknown): Z right, Y up, X forward.
    let pz = unit(orthogonal(b.rightHip - b.leftHip, to: up))
    let py = unit(orthogonal(up, to: pz))
    let px = cross(py, pz)

    out[0] = flexion(b.leftShoulder, b.leftElbow, b.leftWrist)
    out[1] = flexion(b.rightShoulder, b.rightElbow, b.rightWrist)
    let hl = unit(b.leftElbow - b.leftShoulder), hr = unit(b.rightElbow - b.rightShoulder)
    out[2] = acos(clamp(dot(-hl, ty))) * degrees
    out[3] = acos(clamp(dot(-hr, ty))) * degrees
    out[4] = atan2(dot(hl, tx), -dot(hl, tz)) * degrees
    out[5] = atan2(dot(hr, tx), dot(hr, tz)) * degrees
    let thighL = b.leftKnee - b.leftHip, thighR = b.rightKnee - b.rightHip
    out[6] = atan2(dot(thighL, px), -dot(thighL, py)) * degrees
    out[7] = atan2(dot(thighR, px), -dot(thighR, py)) * degrees
    out[8] = flexion(b.leftHip, b.leftKnee, b.leftAnkle)
    out[9] = flexion(b.rightHip, b.rightKnee, b.rightAnkle)
    out[10] = atan2(dot(trunk, px), dot(trunk, up)) * degrees
    let hipLine = orthogonal(b.rightHip - b.leftHip, to: ty)
    let shoulderLine = orthogonal(b.rightShoulder - b.leftShoulder, to: ty)
    out[11] = atan2(dot(cross(hipLine, shoulderLine), ty), dot(hipLine, shoulderLine)) * degrees
  }

  /// 180° minus the angle at `b` between `a` and `c`: 0° for a straight limb.
  static func flexion(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) -> Double {
    let u = a - b, v = c - b
    // atan2 of |u×v| and u·v: accurate near 0° and 180°, unlike acos.
    let inner = atan2(length(cross(u, v)), dot(u, v))
    let n = length(u) * length(v)
    return n > 0 ? 180 - inner * degrees : .nan
  }

  @inline(__always) static func clamp(_ x: Double) -> Double { min(1, max(-1, x)) }
  @inline(__always) static func unit(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let n = length(v)
    return n > 0 ? v / n : SIMD3(repeating: .nan)
  }
  @inline(__always) static func orthogonal(_ v: SIMD3<Double>, to axis: SIMD3<Double>) -> SIMD3<Double> {
    v - dot(v, axis) * axis
  }
}

