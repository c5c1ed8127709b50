import MatchSceneCore

/// A stroke's joint angles on a registered time axis: `sampleCount` samples with the four landmarks
/// (`StrokeLandmarks`) at fixed samples — backswing start 0, forward swing start `forwardSwingSample`,
/// contact `contactSample`, follow-through end 100 — and time mapped linearly between them.
///
/// This is landmark registration (Ramsay & Silverman, *Functional Data Analysis*, 2nd ed., Springer
/// 2005, §7.3: piecewise-linear time warping through landmarks): each phase is stretched on its own, so
/// two strokes that move alike but whose phases last differently line up phase by phase, and two
/// identical strokes give identical curves wherever the camera's frames fall (the landmarks are
/// sub-frame and the angles interpolated linearly between frames).
public struct StrokeCurves: Sendable, Codable, Equatable {
  public static let sampleCount = LandmarkRegistration.sampleCount
  public static let forwardSwingSample = LandmarkRegistration.forwardSwingSample
  public static let contactSample = LandmarkRegistration.contactSample

  /// Degrees per `FormJoint` (racket-relative, `FormJoint.sign` applied), `sampleCount` each; periodic
  /// angles unwrapped along the stroke.
  public var values: [FormJoint: [Double]]
  /// The racket hand's speed, m/s, same samples.
  public var speed: [Double]
  /// Seconds from the backswing start to contact, and from contact to the follow-through end.
  public var backswingDuration: Double
  public var followThroughDuration: Double
  /// Seconds from the forward swing start to contact (absent in references saved before it existed).
  public var forwardSwingDuration: Double?
  /// One standard deviation of each joint's angle from the keypoints' errors (`AngleUncertainty`),
  /// degrees, same samples (absent in references saved before it existed).
  public var measurementSD: [FormJoint: [Double]]?
  /// The frame rate the stroke was measured at (absent in references saved before it existed).
  public var fps: Double?

  public init(
    values: [FormJoint: [Double]], speed: [Double], backswingDuration: Double, followThroughDuration: Double,
    forwardSwingDuration: Double? = nil, measurementSD: [FormJoint: [Double]]? = nil, fps: Double? = nil
  ) {
    self.values = values
    self.speed = speed
    self.backswingDuration = backswingDuration
    self.followThroughDuration = followThroughDuration
    self.forwardSwingDuration = forwardSwingDuration
    self.measurementSD = measurementSD
    self.fps = fps
  }

  /// The curves of `stroke` from its player's `series`; nil when a landmark is missing or out of order,
  /// or a joint's angle is missing at a frame the samples need.
  public init?(_ stroke: FormStroke, series: AngleSeries) {
    let l: [Double]
    if let landmarks = stroke.landmarks {
      l = landmarks.all
    } else {
      // Strokes read from a file written without landmarks: frames, the forward swing at the middle of
      // the backswing when unknown.
      let b = Double(stroke.backswingStartFrame), c = Double(stroke.contactFrame)
      l = [b, stroke.forwardSwingStartFrame.map(Double.init) ?? (b + c) / 2, c, Double(stroke.followThroughEndFrame)]
    }
    guard l[0] < l[1], l[1] < l[2], l[2] < l[3] else { return nil }
    let lo = Int(l[0].rounded(.down)), hi = Int(l[3].rounded(.up))
    guard series.frames.contains(lo), series.frames.contains(hi) else { return nil }
    let positions = LandmarkRegistration.positions(l)
    func resample(_ value: (Int) -> Double, periodic: Bool) -> [Double]? {
      var frames = (lo...hi).map(value)
      if periodic {
        for i in 1..<frames.count where frames[i].isFinite && frames[i - 1].isFinite {
          var d = frames[i] - frames[i - 1]
          d -= 360 * (d / 360).rounded()
          frames[i] = frames[i - 1] + d
        }
      }
      var out = [Double](repeating: 0, count: positions.count)
      for (k, p) in positions.enumerated() {
        let x = p - Double(lo)
        let i = min(max(0, Int(x.rounded(.down))), frames.count - 2)
        let t = x - Double(i)
        let v = t == 0 ? frames[i] : frames[i] * (1 - t) + frames[i + 1] * t
        guard v.isFinite else { return nil }
        out[k] = v
      }
      return out
    }
    var values: [FormJoint: [Double]] = [:]
    var sd: [FormJoint: [Double]] = [:]
    for joint in FormJoint.allCases {
      let angle = joint.angle(racketSide: stroke.hand), sign = joint.sign(racketSide: stroke.hand)
      guard let v = resample({ sign * series.angle(angle, frame: $0) }, periodic: joint.isPeriodic) else { return nil }
      values[joint] = v
      sd[joint] = resample({ series.sd(angle, frame: $0) }, periodic: false) ?? [Double](repeating: 0, count: Self.sampleCount)
    }
    let speed = resample({ series.measure(.racketHandSpeed, frame: $0) }, periodic: false) ?? [Double](repeating: 0, count: Self.sampleCount)
    self.init(
      values: values, speed: speed, backswingDuration: (l[2] - l[0]) / series.fps,
      followThroughDuration: (l[3] - l[2]) / series.fps, forwardSwingDuration: (l[2] - l[1]) / series.fps,
      measurementSD: sd, fps: series.fps)
  }

  /// Seconds from contact of sample `k`.
  public func timeFromContact(sample k: Int) -> Double {
    let c = Self.contactSample, f = Self.forwardSwingSample
    if k >= c { return followThroughDuration * Double(k - c) / Double(Self.sampleCount - 1 - c) }
    guard let forward = forwardSwingDuration else { return -backswingDuration * Double(c - k) / Double(c) }
    if k >= f { return -forward * Double(c - k) / Double(c - f) }
    return -forward - (backswingDuration - forward) * Double(f - k) / Double(f)
  }

  /// The mean of several strokes' curves (angles and speed sample by sample, durations averaged);
  /// periodic angles are averaged after shifting each curve by whole turns towards the first's.
  public static func mean(_ curves: [StrokeCurves]) -> StrokeCurves? {
    combine(curves) { $0.reduce(0, +) / Double($0.count) }
  }

  /// The sample-by-sample median of several strokes' curves (a centre one odd stroke cannot pull):
  /// durations and measurement σ are medians too.
  public static func median(_ curves: [StrokeCurves]) -> StrokeCurves? {
    combine(curves, MatchSceneCore.median)
  }

  static func combine(_ curves: [StrokeCurves], _ centre: ([Double]) -> Double) -> StrokeCurves? {
    guard let first = curves.first else { return nil }
    var values: [FormJoint: [Double]] = [:]
    var sd: [FormJoint: [Double]] = [:]
    var column = [Double](repeating: 0, count: curves.count)
    for joint in FormJoint.allCases {
      let shifts = curves.map { c in
        joint.isPeriodic ? 360 * ((first.values[joint]![0] - c.values[joint]![0]) / 360).rounded() : 0
      }
      values[joint] = (0..<sampleCount).map { k in
        for (i, c) in curves.enumerated() { column[i] = c.values[joint]![k] + shifts[i] }
        return centre(column)
      }
      let sds = curves.compactMap { $0.measurementSD?[joint] }
      if sds.count == curves.count {
        sd[joint] = (0..<sampleCount).map { k in centre(sds.map { $0[k] }) }
      }
    }
    let speed = (0..<sampleCount).map { k in centre(curves.map { $0.speed[k] }) }
    let forward = curves.compactMap(\.forwardSwingDuration)
    return StrokeCurves(
      values: values, speed: speed, backswingDuration: centre(curves.map(\.backswingDuration)),
      followThroughDuration: centre(curves.map(\.followThroughDuration)),
      forwardSwingDuration: forward.count == curves.count ? centre(forward) : nil,
      measurementSD: sd.count == FormJoint.allCases.count ? sd : nil, fps: first.fps)
  }
}
