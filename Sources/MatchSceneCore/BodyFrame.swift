/// A frame carried by a person, built from the hips and shoulders at one instant: origin at the hips'
/// midpoint (or the chest, the shoulders' midpoint), z the venue's up, y forward — the horizontal normal
/// of the shoulder line, pointing the way the chest faces — and x to the person's right (x = y × z).
/// Zones attached to a body (`Zone.Attachment.body`) are given in it.
public struct BodyFrame: Sendable, Equatable {
  /// Where the frame's origin is on the body.
  public enum Origin: String, Sendable, CaseIterable {
    /// The midpoint of the hips (the `mid_hip` keypoint when the hips are missing).
    case hips
    /// The midpoint of the shoulders.
    case chest
  }

  /// The origin, venue coordinates.
  public var origin: SIMD3<Double>
  /// Unit forward, horizontal, venue coordinates.
  public var forward: SIMD3<Double>

  public init(origin: SIMD3<Double>, forward: SIMD3<Double>) {
    self.origin = origin
    self.forward = forward
  }

  /// Unit right, horizontal (forward × up), venue coordinates.
  public var right: SIMD3<Double> { SIMD3(forward.y, -forward.x, 0) }

  /// The frame from venue-frame (z up) keypoints; nil when a shoulder (or both hips and `mid_hip`, for
  /// the hips origin) is missing, or the shoulder line is (nearly) vertical.
  public init?(
    leftShoulder: SIMD3<Double>?, rightShoulder: SIMD3<Double>?, leftHip: SIMD3<Double>?, rightHip: SIMD3<Double>?,
    midHip: SIMD3<Double>?, origin: Origin
  ) {
    guard let ls = leftShoulder, let rs = rightShoulder else { return nil }
    let across = rs - ls
    // forward = up × (right − left shoulder), horizontal.
    let f = SIMD3(-across.y, across.x, 0)
    let n = (f * f).sum().squareRoot()
    guard n > 1e-3 else { return nil }
    switch origin {
    case .chest:
      self.origin = (ls + rs) / 2
    case .hips:
      if let lh = leftHip, let rh = rightHip {
        self.origin = (lh + rh) / 2
      } else if let midHip {
        self.origin = midHip
      } else {
        return nil
      }
    }
    forward = f / n
  }

  /// A body-frame point (x right, y forward, z up) in venue coordinates.
  public func venuePoint(_ bodyPoint: SIMD3<Double>) -> SIMD3<Double> {
    origin + right * bodyPoint.x + forward * bodyPoint.y + SIMD3(0, 0, bodyPoint.z)
  }

  /// A venue point in body-frame coordinates (x right, y forward, z up).
  public func bodyPoint(_ venuePoint: SIMD3<Double>) -> SIMD3<Double> {
    let d = venuePoint - origin
    return SIMD3((d * right).sum(), (d * forward).sum(), d.z)
  }
}
