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
  public func body(frame: Int) -> BodyPoints? {
    frames.contains(frame) ? points[frame - firstFrame] : nil
  }
}
