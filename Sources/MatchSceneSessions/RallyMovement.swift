import Foundation
import MatchSceneCore

/// How one player moved while the ball was in play: from each rally's start to its end, not over the
/// pauses between (venue frame, metres). The hip midpoint is sampled at 10 Hz, as `distanceCovered`.
public struct RallyMovement: Sendable, Codable, Equatable {
  /// Horizontal hip path per rally, in rally order, metres.
  public var distancePerRally: [Double]
  /// Seconds of rallies in which the player was seen.
  public var secondsInPlay: Double
  /// Median distance of the hips behind the player's own end line during rallies, metres (negative:
  /// over the table). The end lines are at venue x = ±1.37 m (ITTF 2.1.2: the table is 2.74 m long).
  public var medianBehindEndLine: Double?
  /// Interquartile range of the hips' venue y during rallies, metres: how far side to side they play.
  public var lateralSpread: Double?

  public var distanceInPlay: Double { distancePerRally.reduce(0, +) }
  public var meanDistancePerRally: Double? {
    distancePerRally.isEmpty ? nil : distanceInPlay / Double(distancePerRally.count)
  }

  public static let endLineX = 1.37

  /// `hips` (absolute frame → venue position of the hip midpoint, sampled every `step` frames at `fps`)
  /// within the rallies `rallies` (first…last frame each).
  public init(hips: [(frame: Int, position: SIMD3<Double>?)], rallies: [ClosedRange<Int>], step: Int, fps: Double) {
    var perRally: [Double] = [], behind: [Double] = [], ys: [Double] = []
    var seen = 0
    for rally in rallies {
      var distance = 0.0
      var previous: SIMD3<Double>?
      for (frame, p) in hips where rally.contains(frame) {
        guard let p else {
          previous = nil
          continue
        }
        if let q = previous { distance += ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
        previous = p
        seen += 1
        behind.append(abs(p.x) - Self.endLineX)
        ys.append(p.y)
      }
      perRally.append(distance)
    }
    distancePerRally = perRally
    secondsInPlay = Double(seen * step) / fps
    medianBehindEndLine = behind.isEmpty ? nil : median(behind)
    if ys.count >= 4 {
      let s = ys.sorted()
      func quantile(_ q: Double) -> Double {
        let x = q * Double(s.count - 1), i = Int(x.rounded(.down)), t = x - Double(i)
        return i + 1 < s.count ? s[i] * (1 - t) + s[i + 1] * t : s[i]
      }
      lateralSpread = quantile(0.75) - quantile(0.25)
    } else {
      lateralSpread = nil
    }
  }
}
