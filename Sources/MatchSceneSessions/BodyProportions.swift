import Foundation
import MatchSceneCore
import MatchSceneMotion

/// A person's limb lengths: the median length of each bone over a session (`BoneLengthConstraint.lengths`),
/// keyed `"a-b"` by the bone's keypoint names so that sessions of different skeletons compare on the
/// bones they share.
public struct BodyProportions: Sendable, Codable, Equatable {
  public var boneLengths: [String: Double]

  public init(boneLengths: [String: Double]) { self.boneLengths = boneLengths }

  /// The median bone lengths of track `index` of `motion`.
  public init(track index: Int, of motion: MotionModel) {
    let track = motion.tracks[index]
    let skeleton = motion.skeleton
    var frames: [[SIMD3<Double>?]] = []
    frames.reserveCapacity(track.frameCount)
    for offset in 0..<track.frameCount {
      let frame = track.firstFrame + offset
      frames.append((0..<track.jointCount).map { track.position(joint: $0, frame: frame) })
    }
    let lengths = BoneLengthConstraint.lengths(of: frames, skeleton: skeleton)
    var named: [String: Double] = [:]
    for (bone, length) in lengths {
      let (a, b) = skeleton.bones[bone]
      named["\(skeleton.keypoints[a])-\(skeleton.keypoints[b])"] = length
    }
    boneLengths = named
  }

  /// Root mean square difference over the bones both have, metres; nil when they share fewer than 4.
  public func distance(to other: BodyProportions) -> Double? {
    let shared = boneLengths.keys.filter { other.boneLengths[$0] != nil }
    guard shared.count >= 4 else { return nil }
    let sum = shared.reduce(0.0) { s, k in
      let d = boneLengths[k]! - other.boneLengths[k]!
      return s + d * d
    }
    return (sum / Double(shared.count)).squareRoot()
  }

  /// The bone-wise median over several sessions of one person.
  public static func median(_ all: [BodyProportions]) -> BodyProportions {
    var values: [String: [Double]] = [:]
    for p in all { for (k, v) in p.boneLengths { values[k, default: []].append(v) } }
    return BodyProportions(boneLengths: values.mapValues { MatchSceneCore.median($0) })
  }
}

/// A known player whose body proportions fit an unnamed player's.
public struct PlayerSuggestion: Sendable, Codable, Equatable {
  /// The unnamed track (`P1`).
  public var track: String
  /// The known player's name.
  public var name: String
  /// RMS difference of the median bone lengths, metres.
  public var rmsDifference: Double
  /// How sure: the Gaussian likelihood of this player's difference divided by the sum over every known
  /// player's (0…1).
  public var confidence: Double
}

/// Matches an unnamed player to known ones by limb lengths.
///
/// Bone lengths scale with stature (Winter, *Biomechanics and Motor Control of Human Movement*, 4th ed.,
/// 2009, §4.1: segment lengths as fractions of height), so people a few centimetres apart in height differ by
/// about a centimetre in the long bones, while a session's median bone length from triangulated keypoints
/// varies by a few millimetres. A known player is suggested when the RMS difference over the shared bones is
/// within `tolerance` (default 1.5 cm); the confidence treats each difference as Gaussian with
/// `sigma` (default 5 mm) and normalises over every known player.
public struct PlayerMatcher: Sendable {
  public var tolerance: Double
  public var sigma: Double

  public init(tolerance: Double = 0.015, sigma: Double = 0.005) {
    self.tolerance = tolerance
    self.sigma = sigma
  }

  /// The best known player for `proportions`, nil when none is within the tolerance.
  public func suggest(track: String, proportions: BodyProportions, known: [String: BodyProportions]) -> PlayerSuggestion? {
    let scored = known.compactMap { name, p in proportions.distance(to: p).map { (name: name, d: $0) } }
    guard let best = scored.min(by: { $0.d < $1.d }), best.d <= tolerance else { return nil }
    let likelihood = { (d: Double) in exp(-0.5 * (d * d - best.d * best.d) / (sigma * sigma)) }
    let total = scored.reduce(0.0) { $0 + likelihood($1.d) }
    return PlayerSuggestion(track: track, name: best.name, rmsDifference: best.d, confidence: 1 / total)
  }
}
