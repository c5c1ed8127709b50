import Foundation
import MatchSceneCore
import MatchSceneMotion

/// A person's limb lengths in one session and how well the session measured them, keyed `"a-b"` by the
/// bone's keypoint names so that sessions of different skeletons compare on the bones they share.
///
/// Measurement model (`BodyMeasurementModel`): a session's length of bone b is the median over its frames
/// of the bone's length (`BoneLengthConstraint.lengths`), and its uncertainty σ_b combines the bone's
/// frame-to-frame spread s_b (1.4826 × MAD, `SoftBoneLengths.spreads`, the spread the reconstruction's
/// bone-length step works with) shrunk by the frames that measured it, with a floor for what does not
/// average out over a session (keypoint placement, calibration scale):
///
///   σ_b² = (1.2533 · s_b / √n_eff)² + σ_sys²,   n_eff = max(1, frames / (fps · τ)),
///
/// 1.2533 being the standard error of a median relative to a mean for Gaussian samples (√(π/2)), τ the
/// time over which a track's errors stay correlated.
public struct BodyProportions: Sendable, Codable, Equatable {
  /// Bone → the session's median length, metres.
  public var boneLengths: [String: Double]
  /// Bone → σ of that length as a measurement of the person, metres; empty for proportions stored before
  /// it existed (the model's `defaultSigma` is used then).
  public var boneSigmas: [String: Double]

  public init(boneLengths: [String: Double], boneSigmas: [String: Double] = [:]) {
    self.boneLengths = boneLengths
    self.boneSigmas = boneSigmas
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    boneLengths = try c.decode([String: Double].self, forKey: .boneLengths)
    boneSigmas = try c.decodeIfPresent([String: Double].self, forKey: .boneSigmas) ?? [:]
  }

  /// The median bone lengths of track `index` of `motion` and their uncertainty under `model`.
  public init(track index: Int, of motion: MotionModel, model: BodyMeasurementModel = .init()) {
    let track = motion.tracks[index]
    let skeleton = motion.skeleton
    var frames: [[SIMD3<Double>?]] = []
    frames.reserveCapacity(track.frameCount)
    for offset in 0..<track.frameCount {
      let frame = track.firstFrame + offset
      frames.append((0..<track.jointCount).map { track.position(joint: $0, frame: frame) })
    }
    let lengths = BoneLengthConstraint.lengths(of: frames, skeleton: skeleton)
    let spreads = SoftBoneLengths.spreads(of: frames, lengths: lengths, skeleton: skeleton)
    var named: [String: Double] = [:], sigmas: [String: Double] = [:]
    for (bone, length) in lengths {
      let (a, b) = skeleton.bones[bone]
      let key = "\(skeleton.keypoints[a])-\(skeleton.keypoints[b])"
      named[key] = length
      let count = frames.reduce(0) { $0 + ($1[a] != nil && $1[b] != nil ? 1 : 0) }
      sigmas[key] = model.sigma(spread: spreads[bone] ?? model.defaultSigma, frames: count, fps: motion.fps)
    }
    boneLengths = named
    boneSigmas = sigmas
  }

  /// σ of bone `key`, the model's default when not stored.
  public func sigma(_ key: String, model: BodyMeasurementModel = .init()) -> Double {
    boneSigmas[key] ?? model.defaultSigma
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

  /// One person's proportions from several sessions: per bone the median length, and as its σ the
  /// standard error of a mean of k measurements (√(mean σᵢ² / k)), or — when the sessions disagree more
  /// than their σᵢ say (k ≥ 2) — of their observed scatter (sample variance / k).
  public static func median(_ all: [BodyProportions], model: BodyMeasurementModel = .init()) -> BodyProportions {
    var values: [String: [Double]] = [:], variances: [String: [Double]] = [:]
    for p in all {
      for (k, v) in p.boneLengths {
        values[k, default: []].append(v)
        variances[k, default: []].append(pow(p.sigma(k, model: model), 2))
      }
    }
    var sigmas: [String: Double] = [:]
    for (k, v) in values {
      let n = Double(v.count)
      var variance = variances[k]!.reduce(0, +) / n / n
      if v.count >= 2 {
        let mean = v.reduce(0, +) / n
        let scatter = v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        variance = max(variance, scatter / n)
      }
      sigmas[k] = variance.squareRoot()
    }
    return BodyProportions(boneLengths: values.mapValues { MatchSceneCore.median($0) }, boneSigmas: sigmas)
  }
}

/// How well a session measures a person's limb lengths, and how people differ (`BodyProportions`,
/// `PlayerMatcher`).
public struct BodyMeasurementModel: Sendable, Equatable {
  /// Time over which a track's keypoint errors stay correlated, seconds (smoothing and slow pose
  /// changes): frames closer than this are not independent measurements.
  public var correlationTime = 0.5
  /// The floor of a session's σ per bone, metres: what does not average out over a session (where a
  /// detector puts a joint centre on this person, the calibration's scale).
  public var systematicSigma = 0.002
  /// σ of a bone stored without one (stores written before σ was kept), metres.
  public var defaultSigma = 0.004
  /// How much one adult's bone differs from another's of the same stature, as a share of its length:
  /// segment-to-stature ratios vary by about 3–5 % between adults (Winter 2009, §4.1; Drillis & Contini
  /// 1966). Used for "someone new".
  public var individualShare = 0.04
  /// How much adults' statures differ, as a share (≈ 7 cm in 1.75 m: the spread of adult stature within
  /// a sex, NCD-RisC 2016).
  public var statureShare = 0.04

  public init() {}

  /// σ_b of a session's median length from the bone's per-frame spread and the frames that measured it.
  public func sigma(spread: Double, frames: Int, fps: Double) -> Double {
    let independent = max(1, Double(frames) / max(1, fps * correlationTime))
    let sampling = 1.2533 * spread / independent.squareRoot()
    return (sampling * sampling + systematicSigma * systematicSigma).squareRoot()
  }
}
