import MatchSceneCore

/// One player's angles and measures at every frame of the track, venue frame.
///
/// Values are stored densely, `angles[a * frameCount + (frame − firstFrame)]` for the a-th
/// `FormAngle.allCases`; NaN where a keypoint the value needs is missing.
public struct AngleSeries: Sendable {
  public var track: String
  public var fps: Double
  public var firstFrame: Int
  public var frameCount: Int
  /// The racket hand's side (`Handedness.estimate`).
  public var racketSide: BodySide
  /// Degrees.
  public var angles: [Double]
  /// One standard deviation of each angle, degrees, from the keypoints' reprojection errors
  /// (`AngleUncertainty`).
  public var angleSD: [Double]
  /// `FormMeasure.allCases` × frames, same layout, SI units.
  public var measures: [Double]
  /// The keypoints of each frame, nil where one is missing.
  public var points: [BodyPoints?]
  /// The racket wrist relative to the hip centre (venue axes, metres) per frame, NaN where one of them
  /// is missing: the racket hand's motion without the footwork (`StrokeLandmarks`).
  public var racketHandFromPelvis: [SIMD3<Double>]

  public init(
    track: String, fps: Double, firstFrame: Int, frameCount: Int, racketSide: BodySide, angles: [Double],
    angleSD: [Double], measures: [Double], points: [BodyPoints?], racketHandFromPelvis: [SIMD3<Double>]? = nil
  ) {
    self.track = track
    self.fps = fps
    self.firstFrame = firstFrame
    self.frameCount = frameCount
    self.racketSide = racketSide
    self.angles = angles
    self.angleSD = angleSD
    self.measures = measures
    self.points = points
    self.racketHandFromPelvis = racketHandFromPelvis ?? points.map { b in
      b.map { $0.wrist(racketSide) - $0.hipCentre } ?? SIMD3(repeating: .nan)
    }
  }

  public var frames: ClosedRange<Int> { firstFrame...(firstFrame + frameCount - 1) }

  public func angle(_ a: FormAngle, frame: Int) -> Double {
    angles[a.index * frameCount + frame - firstFrame]
  }
  public func sd(_ a: FormAngle, frame: Int) -> Double {
    angleSD[a.index * frameCount + frame - firstFrame]
  }
  public func measure(_ m: FormMeasure, frame: Int) -> Double {
    measures[m.index * frameCount + frame - firstFrame]
  }
  /// Whether the frame has every keypoint the angles need.
  public func hasBody(frame: Int) -> Bool { frames.contains(frame) && points[frame - firstFrame] != nil }
  /// Whether the frame has any angle or measure (a row of `angles.csv`).
  public func hasAnyValue(frame: Int) -> Bool {
    guard frames.contains(frame) else { return false }
    let i = frame - firstFrame
    for a in 0..<FormAngle.allCases.count where angles[a * frameCount + i].isFinite { return true }
    for m in 0..<FormMeasure.allCases.count where measures[m * frameCount + i].isFinite { return true }
    return false
  }
  public func body(frame: Int) -> BodyPoints? {
    frames.contains(frame) ? points[frame - firstFrame] : nil
  }
}
