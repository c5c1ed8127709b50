import MatchSceneCore

/// The keypoints form analysis uses, by role, in one frame (venue frame, metres).
public struct BodyPoints: Sendable, Equatable {
  public var leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist: SIMD3<Double>
  public var leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle: SIMD3<Double>
  /// Midpoint of the head (the ears, else the nose); nil when the skeleton has neither.
  public var head: SIMD3<Double>?

  /// The roles read, in the order of `Self.init(points:)` and `array`.
  public static let roles: [JointRole] = [
    .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist,
    .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle,
  ]

  /// From 12 points in `roles` order.
  public init(points p: [SIMD3<Double>], head: SIMD3<Double>?) {
    precondition(p.count == 12, "BodyPoints needs 12 points in BodyPoints.roles order")
    leftShoulder = p[0]; rightShoulder = p[1]; leftElbow = p[2]; rightElbow = p[3]; leftWrist = p[4]
    rightWrist = p[5]; leftHip = p[6]; rightHip = p[7]; leftKnee = p[8]; rightKnee = p[9]
    leftAnkle = p[10]; rightAnkle = p[11]
    self.head = head
  }

  /// The 12 points in `roles` order.
  public var array: [SIMD3<Double>] {
    [leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist,
     leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle]
  }

  public var shoulderCentre: SIMD3<Double> { 0.5 * (leftShoulder + rightShoulder) }
  public var hipCentre: SIMD3<Double> { 0.5 * (leftHip + rightHip) }

  public func wrist(_ side: BodySide) -> SIMD3<Double> { side == .left ? leftWrist : rightWrist }
}
