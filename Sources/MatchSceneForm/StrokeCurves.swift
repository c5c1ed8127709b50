import MatchSceneCore

/// A stroke's joint angles on a normalised time axis: `sampleCount` samples from the backswing start
/// (0 %) through the contact (sample `contactSample`, 50 %) to the follow-through end (100 %), each phase
/// resampled linearly on its own so that every stroke is aligned at contact (time normalisation as in
/// gait analysis, e.g. Winter 2009 §1.3; phases normalised separately as in Sadeghi et al., "Symmetry
/// and limb dominance in able-bodied gait", 2000, use of % of stance/swing).
public struct StrokeCurves: Sendable, Codable, Equatable {
  public static let sampleCount = 101
  public static let contactSample = 50

  /// Degrees per `FormJoint` (racket-relative, `FormJoint.sign` applied), `sampleCount` each; periodic
  /// angles unwrapped along the stroke.
  public var values: [FormJoint: [Double]]
  /// The racket hand's speed, m/s, same samples (the timing signal `StrokeComparison` aligns on).
  public var speed: [Double]
  /// Seconds from the backswing start to contact, and from contact to the follow-through end.
  public var backswingDuration: Double
  public var followThroughDuration: Double

  public init(values: [FormJoint: [Double]], speed: [Double], backswingDuration: Double, followThroughDuration: Double) {
    self.values = values
    self.speed = speed
    self.backswingDuration = backswingDuration
    self.followThroughDuration = followThroughDuration
  }

  /// The curves of `stroke` from its player's `series`; nil when a phase has no frames.
  public init?(_ stroke: FormStroke, series: AngleSeries) {
    let a = stroke.backswingStartFrame, c = stroke.contactFrame, e = stroke.followThroughEndFrame
    guard a < c, c < e, series.frames.contains(a), series.frames.contains(e) else { return nil }
    // Sample positions in (fractional) frames.
    let half = Self.contactSample
    let rest = Double(Self.sampleCount - 1 - half)
    let backFrames = Double(c - a), followFrames = Double(e - c)
    let positions = (0..<Self.sampleCount).map { k -> Double in
      if k <= half { return Double(a) + backFrames * Double(k) / Double(half) }
      return Double(c) + followFrames * Double(k - half) / rest
    }
    func resample(_ value: (Int) -> Double, periodic: Bool) -> [Double]? {
      var frames = (a...e).map(value)
      if periodic {
        for i in 1..<frames.count where frames[i].isFinite && frames[i - 1].isFinite {
          var d = frames[i] - frames[i - 1]
          d -= 360 * (d / 360).rounded()
          frames[i] = frames[i - 1] + d
        }
      }
      guard frames.allSatisfy(\.isFinite) else { return nil }
      return positions.map { p in
        let x = p - Double(a)
        let i = min(Int(x), frames.count - 2)
        let t = x - Double(i)
        return frames[i] * (1 - t) + frames[i + 1] * t
      }
    }
    var values: [FormJoint: [Double]] = [:]
    for joint in FormJoint.allCases {
      let angle = joint.angle(racketSide: stroke.hand), sign = joint.sign(racketSide: stroke.hand)
      guard let v = resample({ sign * series.angle(angle, frame: $0) }, periodic: joint.isPeriodic) else { return nil }
      values[joint] = v
    }
    guard let speed = resample({ series.measure(.racketHandSpeed, frame: $0) }, periodic: false) else { return nil }
    self.init(
      values: values, speed: speed, backswingDuration: Double(c - a) / series.fps,
      followThroughDuration: Double(e - c) / series.fps)
  }

  /// Seconds from contact of sample `k`.
  public func timeFromContact(sample k: Int) -> Double {
    k <= Self.contactSample
      ? -backswingDuration * Double(Self.contactSample - k) / Double(Self.contactSample)
      : followThroughDuration * Double(k - Self.contactSample) / Double(Self.sampleCount - 1 - Self.contactSample)
  }

  /// The mean of several strokes' curves (angles and speed sample by sample, durations averaged);
  /// periodic angles are averaged after shifting each curve by whole turns towards the first's.
  public static func mean(_ curves: [StrokeCurves]) -> StrokeCurves? {
    guard let first = curves.first else { return nil }
    var values: [FormJoint: [Double]] = [:]
    for joint in FormJoint.allCases {
      var sum = [Double](repeating: 0, count: sampleCount)
      for c in curves {
        let v = c.values[joint]!
        let shift = joint.isPeriodic ? 360 * ((first.values[joint]![0] - v[0]) / 360).rounded() : 0
        for k in 0..<sampleCount { sum[k] += v[k] + shift }
      }
      values[joint] = sum.map { $0 / Double(curves.count) }
    }
    let n = Double(curves.count)
    let speed = (0..<sampleCount).map { k in curves.reduce(0) { $0 + $1.speed[k] } / n }
    return StrokeCurves(
      values: values, speed: speed, backswingDuration: curves.reduce(0) { $0 + $1.backswingDuration } / n,
      followThroughDuration: curves.reduce(0) { $0 + $1.followThroughDuration } / n)
  }
}
