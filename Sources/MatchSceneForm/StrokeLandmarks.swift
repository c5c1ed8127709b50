import MatchSceneCore

/// The four landmarks of a stroke, in fractional frames of its player's `AngleSeries` (sub-frame, so
/// that two identical strokes sampled at different phases of the camera clock get the same landmarks).
///
/// - `contact`: the player's `hit` event (the ball's change of flight), at its time.
/// - `forwardSwingStart`: the end of the backswing, where the racket hand (relative to the hip centre,
///   so footwork does not count) is farthest from where it meets the ball, within the window before
///   contact; refined by a parabola through the three frames around the farthest.
/// - `backswingStart`: before that, where the racket hand last moved slower than `restFraction` of the
///   backswing's peak speed (interpolated between frames): the hand leaves rest.
/// - `followThroughEnd`: likewise after contact, where the racket hand is farthest from where it met the
///   ball (the end of the swing, before it recovers), within the window after contact.
/// A threshold crossing on the steep flank of the speed profile and position extrema move by a
/// fraction of a frame under detection noise, where "the slowest frame in a window" jumps along the
/// flat stretch of a hand at rest (measured on identical simulated strokes with 5 mm keypoint noise:
/// a slowest-speed criterion for the follow-through end spread 9–26 frames, the farthest point 1–2).
public struct StrokeLandmarks: Sendable, Codable, Equatable {
  public var backswingStart: Double
  public var forwardSwingStart: Double
  public var contact: Double
  public var followThroughEnd: Double

  public init(backswingStart: Double, forwardSwingStart: Double, contact: Double, followThroughEnd: Double) {
    self.backswingStart = backswingStart
    self.forwardSwingStart = forwardSwingStart
    self.contact = contact
    self.followThroughEnd = followThroughEnd
  }

  /// In time order.
  public var all: [Double] { [backswingStart, forwardSwingStart, contact, followThroughEnd] }

  /// The share of the backswing's peak speed that counts as the hand at rest.
  public static let restFraction = 0.2

  /// The landmarks of the stroke whose contact is at fractional frame `contact`, searched within
  /// frames `lower…upper`; `minimumFrames` apart at least. Nil when the racket hand is missing around
  /// the contact.
  static func find(
    _ series: AngleSeries, speed: [Double], contact: Double, lower: Int, upper: Int, minimumFrames: Int
  ) -> StrokeLandmarks? {
    let first = series.firstFrame, n = series.frameCount
    let hand = series.racketHandFromPelvis
    let ci = Int(contact.rounded())
    let lo = max(first, lower), hi = min(first + n - 1, upper)
    guard lo < ci - minimumFrames, ci + minimumFrames < hi else { return nil }
    let at = hand[ci - first]
    guard at.x.isFinite else { return nil }
    func v(_ f: Int) -> Double { speed[f - first] }

    /// The frame in `range` where the hand is farthest from its contact position, refined by a parabola.
    func farthest(_ range: ClosedRange<Int>) -> Double? {
      var best = -1, distance = -Double.infinity
      var d = [Double](repeating: .nan, count: range.count)
      for f in range {
        let p = hand[f - first]
        guard p.x.isFinite else { continue }
        d[f - range.lowerBound] = length(p - at)
        if d[f - range.lowerBound] > distance {
          distance = d[f - range.lowerBound]
          best = f
        }
      }
      guard best >= 0 else { return nil }
      guard best > range.lowerBound, best < range.upperBound else { return Double(best) }
      let i = best - range.lowerBound
      return Double(best) + parabolaPeak(d[i - 1], d[i], d[i + 1])
    }
    guard let forward = farthest(lo...(ci - minimumFrames)) else { return nil }
    let forwardFrame = Int(forward.rounded())

    // Backswing start: the hand last below `restFraction` of the backswing's peak speed.
    var peak = lo, peakSpeed = -Double.infinity
    for f in lo...forwardFrame where v(f).isFinite && v(f) > peakSpeed {
      peakSpeed = v(f)
      peak = f
    }
    var backswing = Double(lo)
    if peakSpeed > 0 {
      let threshold = restFraction * peakSpeed
      var f = peak
      while f > lo, !(v(f - 1) < threshold) { f -= 1 }
      if f > lo { backswing = crossing(Double(f - 1), v(f - 1), v(f), threshold) }
    }
    backswing = min(backswing, forward - Double(minimumFrames))

    // Follow-through end: farthest from the contact position after contact.
    var followThrough = farthest((ci + minimumFrames)...hi) ?? Double(hi)
    followThrough = max(followThrough, contact + Double(minimumFrames))
    guard backswing >= Double(first), followThrough <= Double(first + n - 1) else { return nil }
    return StrokeLandmarks(
      backswingStart: backswing, forwardSwingStart: forward, contact: contact, followThroughEnd: followThrough)
  }

  /// Offset (−0.5…0.5) of the vertex of the parabola through three equally spaced values from the middle.
  static func parabolaPeak(_ a: Double, _ b: Double, _ c: Double) -> Double {
    guard a.isFinite, b.isFinite, c.isFinite else { return 0 }
    let curvature = a - 2 * b + c
    guard curvature < 0 else { return 0 }
    return min(0.5, max(-0.5, 0.5 * (a - c) / curvature))
  }

  /// Where the line through (x, a) and (x + 1, b) meets `threshold`, clamped to [x, x + 1].
  static func crossing(_ x: Double, _ a: Double, _ b: Double, _ threshold: Double) -> Double {
    guard a.isFinite, b.isFinite, a != b else { return x + 0.5 }
    return x + min(1, max(0, (threshold - a) / (b - a)))
  }
}
