import MatchSceneCore

/// The four landmarks of a stroke, in fractional frames of its player's `AngleSeries` (sub-frame, so
/// that two identical strokes sampled at different phases of the camera clock get the same landmarks).
///
/// - `contact`: the player's `hit` event (the ball's change of flight), at its time.
/// - `forwardSwingStart` and `followThroughEnd`: the two ends of the swing's arc — the frame before
///   contact and the frame after it (within the window, at least `minimumFrames` from contact) where the
///   racket hand, relative to the hip centre so that footwork does not count, is farthest from itself;
///   each refined by a parabola through the three frames around it. Neither depends on where the hand
///   is at contact, so a change of technique around contact does not move them.
/// - `backswingStart`: before that, where the racket hand last moved slower than `restFraction` of the
///   backswing's peak speed (interpolated between frames): the hand leaves rest.
/// A threshold crossing on the steep flank of the speed profile and position extrema move by a
/// fraction of a frame under detection noise, where "the slowest frame in a window" jumps along the
/// flat stretch of a hand at rest (measured on identical simulated strokes with 5 mm keypoint noise:
/// a slowest-speed criterion for the follow-through end spread 9–26 frames, the arc's end 2–3).
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
    func v(_ f: Int) -> Double { speed[f - first] }

    // The swing's two ends: the frame before contact and the frame after it where the hand is farthest
    // apart (the ends of the swing's arc), each refined by a parabola with the other held.
    let before = lo...(ci - minimumFrames), after = (ci + minimumFrames)...hi
    var bestBefore = -1, bestAfter = -1, distance = -Double.infinity
    for i in before where hand[i - first].x.isFinite {
      for j in after where hand[j - first].x.isFinite {
        let d = length(hand[i - first] - hand[j - first])
        if d > distance {
          distance = d
          bestBefore = i
          bestAfter = j
        }
      }
    }
    guard bestBefore >= 0 else { return nil }
    func refine(_ best: Int, _ range: ClosedRange<Int>, from other: Int) -> Double {
      guard best > range.lowerBound, best < range.upperBound else { return Double(best) }
      let o = hand[other - first]
      return Double(best) + parabolaPeak(
        length(hand[best - 1 - first] - o), length(hand[best - first] - o), length(hand[best + 1 - first] - o))
    }
    let forward = refine(bestBefore, before, from: bestAfter)
    let forwardFrame = bestBefore

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

    var followThrough = refine(bestAfter, after, from: bestBefore)
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
