import MatchSceneCore

/// Approximate whole-body centre of mass from keypoints with Dempster's segment parameters as tabulated
/// by Winter, *Biomechanics and Motor Control of Human Movement*, 4th ed. (2009), Table 4.1: each
/// segment's mass fraction and the position of its centre of mass along the segment from the proximal
/// end. Sums to 1.000.
///
/// Approximations a keypoint skeleton imposes: hands at the wrists and feet at the ankles (no hand or
/// foot keypoints in COCO-17); head and neck at the head point (the ears' midpoint), which Dempster's
/// table puts at the ear canal (fraction 1.000 from C7–T1); the trunk between the hip centre and the
/// shoulder centre (greater trochanter to glenohumeral joint, 0.50).
public enum SegmentTable {
  /// (mass fraction, centre of mass from proximal) per segment, Winter 2009 Table 4.1.
  public static let hand = (mass: 0.006, com: 0.506)
  public static let forearm = (mass: 0.016, com: 0.430)
  public static let upperArm = (mass: 0.028, com: 0.436)
  public static let foot = (mass: 0.0145, com: 0.50)
  public static let leg = (mass: 0.0465, com: 0.433)
  public static let thigh = (mass: 0.100, com: 0.433)
  public static let headNeck = (mass: 0.081, com: 1.000)
  public static let trunk = (mass: 0.497, com: 0.50)

  /// The centre of mass of `b`; without a head point the head's mass goes to the trunk.
  public static func centreOfMass(_ b: BodyPoints) -> SIMD3<Double> {
    func along(_ a: SIMD3<Double>, _ c: SIMD3<Double>, _ f: Double) -> SIMD3<Double> { a + f * (c - a) }
    var sum = SIMD3<Double>.zero
    for (s, e, w) in [(b.leftShoulder, b.leftElbow, b.leftWrist), (b.rightShoulder, b.rightElbow, b.rightWrist)] {
      sum += upperArm.mass * along(s, e, upperArm.com) + forearm.mass * along(e, w, forearm.com) + hand.mass * w
    }
    for (h, k, a) in [(b.leftHip, b.leftKnee, b.leftAnkle), (b.rightHip, b.rightKnee, b.rightAnkle)] {
      sum += thigh.mass * along(h, k, thigh.com) + leg.mass * along(k, a, leg.com) + foot.mass * a
    }
    let trunkCentre = along(b.shoulderCentre, b.hipCentre, trunk.com)
    if let head = b.head {
      sum += headNeck.mass * head + trunk.mass * trunkCentre
    } else {
      sum += (headNeck.mass + trunk.mass) * trunkCentre
    }
    return sum
  }
}
