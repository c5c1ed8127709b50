import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The degrees of freedom of a simulated body at one instant. Positions are world metres.
struct BodyPose {
  /// Midpoint of the hips.
  var pelvis: SIMD3<Double>
  /// Azimuth the body faces (radians from +x, counter-clockwise seen from above).
  var heading: Double
  /// Swing rotation about the vertical, radians: the pelvis turns by 40 % of it, the shoulders by all.
  var rotation: Double
  /// Forward pitch of the spine, radians.
  var lean: Double
  /// World point the head looks at, if any (the head turns within anatomical limits).
  var lookAt: SIMD3<Double>?
  var leftWrist: SIMD3<Double>
  var rightWrist: SIMD3<Double>
  var leftAnkle: SIMD3<Double>
  var rightAnkle: SIMD3<Double>
}

/// The torso as forward kinematics builds it from pelvis, heading, rotation and lean.
struct Torso {
  var leftHip: SIMD3<Double>
  var rightHip: SIMD3<Double>
  var leftShoulder: SIMD3<Double>
  var rightShoulder: SIMD3<Double>
  var shoulderCentre: SIMD3<Double>
  /// Torso frame: forward, left (along the shoulder line), up (along the spine).
  var forward: SIMD3<Double>
  var left: SIMD3<Double>
  var up: SIMD3<Double>
  /// Forward direction of the pelvis (horizontal).
  var pelvisForward: SIMD3<Double>
}

/// Forward kinematics of a COCO-17 body with constant bone lengths, and two-link inverse kinematics for
/// the limbs.
///
/// Every keypoint is its parent plus a bone length times a unit vector, so the 16 COCO-17 bones keep
/// their length exactly. The torso quadrilateral (both shoulders, both hips) stays consistent under a
/// twist φ of the shoulder line against the hip line by shortening the (non-COCO) spine to
/// `s(φ)² = s₀² − 2·w_s·w_h·(1 − cos φ)`, which keeps the shoulder–hip distances fixed.
enum BodyKinematics {
  /// Fraction of the swing rotation taken by the pelvis; the shoulders turn by the rest on top.
  static let pelvisShare = 0.4

  static func torso(_ d: BodyDimensions, pelvis: SIMD3<Double>, heading: Double, rotation: Double, lean: Double)
    -> Torso
  {
    let yaw = heading + pelvisShare * rotation
    let f = SIMD3(cos(yaw), sin(yaw), 0)
    let l = SIMD3(-sin(yaw), cos(yaw), 0)
    let z = SIMD3<Double>(0, 0, 1)
    let twist = (1 - pelvisShare) * rotation
    let u = cos(lean) * z + sin(lean) * f
    let lt = cos(twist) * l + sin(twist) * cross(u, l)
    let spine2 = d.spine * d.spine - 2 * d.shoulderHalfWidth * d.hipHalfWidth * (1 - cos(twist))
    let c = pelvis + spine2.squareRoot() * u
    return Torso(
      leftHip: pelvis + d.hipHalfWidth * l, rightHip: pelvis - d.hipHalfWidth * l,
      leftShoulder: c + d.shoulderHalfWidth * lt, rightShoulder: c - d.shoulderHalfWidth * lt,
      shoulderCentre: c, forward: cross(lt, u), left: lt, up: u, pelvisForward: f)
  }

  /// The 17 COCO keypoints of `pose`, in `Skeleton.coco17` order.
  static func joints(_ d: BodyDimensions, _ pose: BodyPose) -> [SIMD3<Double>] {
    let t = torso(d, pelvis: pose.pelvis, heading: pose.heading, rotation: pose.rotation, lean: pose.lean)
    // Head: rigid, centred between the ears, turned towards `lookAt` within limits.
    let headCentre = t.shoulderCentre + d.neckForward * t.forward + d.neckUp * t.up
    let torsoAzimuth = atan2(t.forward.y, t.forward.x)
    var azimuth = torsoAzimuth, pitch = -0.1
    if let target = pose.lookAt {
      let v = target - headCentre
      let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
      if horizontal > 1e-6 {
        var relative = atan2(v.y, v.x) - torsoAzimuth
        relative = atan2(sin(relative), cos(relative))
        azimuth = torsoAzimuth + min(1.1, max(-1.1, relative))
        pitch = min(0.5, max(-0.7, atan2(v.z, horizontal)))
      }
    }
    let hf = SIMD3(cos(pitch) * cos(azimuth), cos(pitch) * sin(azimuth), sin(pitch))
    let hl = SIMD3(-sin(azimuth), cos(azimuth), 0)
    let hu = cross(hf, hl)
    var out = [SIMD3<Double>]()
    out.reserveCapacity(17)
    for p in d.headPoints { out.append(headCentre + p.x * hf + p.y * hl + p.z * hu) }
    out.append(t.leftShoulder)
    out.append(t.rightShoulder)
    // Elbows point down, out and slightly back.
    let leftArm = twoLink(
      root: t.leftShoulder, target: pose.leftWrist, d.upperArm, d.forearm,
      pole: -t.up + 0.5 * t.left - 0.3 * t.forward)
    let rightArm = twoLink(
      root: t.rightShoulder, target: pose.rightWrist, d.upperArm, d.forearm,
      pole: -t.up - 0.5 * t.left - 0.3 * t.forward)
    out.append(leftArm.middle)
    out.append(rightArm.middle)
    out.append(leftArm.end)
    out.append(rightArm.end)
    out.append(t.leftHip)
    out.append(t.rightHip)
    // Knees point forward and slightly out.
    let pelvisLeft = SIMD3(-t.pelvisForward.y, t.pelvisForward.x, 0)
    let leftLeg = twoLink(
      root: t.leftHip, target: pose.leftAnkle, d.thigh, d.shank, pole: t.pelvisForward + 0.25 * pelvisLeft)
    let rightLeg = twoLink(
      root: t.rightHip, target: pose.rightAnkle, d.thigh, d.shank, pole: t.pelvisForward - 0.25 * pelvisLeft)
    out.append(leftLeg.middle)
    out.append(rightLeg.middle)
    out.append(leftLeg.end)
    out.append(rightLeg.end)
    return out
  }

  /// Analytic two-link inverse kinematics (law of cosines; e.g. Buss, *Introduction to Inverse
  /// Kinematics*, 2004): the middle joint bends towards `pole`. An unreachable target is replaced by
  /// the nearest reachable point on the line to it, so both links keep their lengths exactly.
  static func twoLink(
    root: SIMD3<Double>, target: SIMD3<Double>, _ l1: Double, _ l2: Double, pole: SIMD3<Double>
  ) -> (middle: SIMD3<Double>, end: SIMD3<Double>) {
    var toTarget = target - root
    var d = length(toTarget)
    if d < 1e-9 {
      toTarget = -normalize(pole)
      d = 1e-9
    }
    let u = toTarget / d
    d = min(max(d, abs(l1 - l2) + 1e-6), (l1 + l2) * (1 - 1e-9))
    var w = pole - dot(pole, u) * u
    if length(w) < 1e-9 {
      w = abs(u.z) < 0.9 ? cross(u, SIMD3(0, 0, 1)) : cross(u, SIMD3(1, 0, 0))
    }
    w = normalize(w)
    let cosA = (l1 * l1 + d * d - l2 * l2) / (2 * l1 * d)
    let sinA = max(0, 1 - cosA * cosA).squareRoot()
    let middle = root + l1 * (cosA * u + sinA * w)
    let end = root + d * u
    return (middle, end)
  }
}
