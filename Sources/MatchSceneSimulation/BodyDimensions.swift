/// Segment lengths of a simulated body, scaled from its standing height with the anthropometric
/// proportions of Drillis & Contini (1966) as tabulated by Winter, *Biomechanics and Motor Control of
/// Human Movement*, 4th ed. (2009), Fig. 4.1 (e.g. shoulder height 0.818 H, hip 0.530 H, knee 0.285 H,
/// ankle 0.039 H, upper arm 0.186 H, forearm 0.146 H). Joint centres sit somewhat inside the body
/// breadths Winter gives, as COCO annotators mark them: shoulders 0.21 H apart, hips 0.13 H.
struct BodyDimensions: Sendable, Equatable {
  let height: Double
  let thigh: Double
  let shank: Double
  /// Ankle joint above the floor when the foot is flat.
  let ankleHeight: Double
  let hipHalfWidth: Double
  /// Hip centre to shoulder centre with the torso untwisted.
  let spine: Double
  let shoulderHalfWidth: Double
  let upperArm: Double
  let forearm: Double
  /// Shoulder centre to the midpoint of the ears, in the torso frame (forward, up).
  let neckForward: Double
  let neckUp: Double
  /// Nose, left eye, right eye, left ear, right ear relative to the midpoint of the ears, in the head
  /// frame (x forward, y left, z up).
  let headPoints: [SIMD3<Double>]

  init(height h: Double) {
    height = h
    thigh = (0.530 - 0.285) * h
    shank = (0.285 - 0.039) * h
    ankleHeight = 0.039 * h
    hipHalfWidth = 0.065 * h
    spine = (0.818 - 0.530) * h
    shoulderHalfWidth = 0.105 * h
    upperArm = 0.186 * h
    forearm = 0.146 * h
    neckForward = 0.012 * h
    neckUp = 0.102 * h
    headPoints = [
      SIMD3(0.062, 0, -0.012) * h,
      SIMD3(0.050, 0.018, 0.012) * h, SIMD3(0.050, -0.018, 0.012) * h,
      SIMD3(0, 0.043, 0) * h, SIMD3(0, -0.043, 0) * h,
    ]
  }

  var armReach: Double { upperArm + forearm }
  var legLength: Double { thigh + shank }
}
