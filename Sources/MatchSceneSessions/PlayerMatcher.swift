import Foundation
import MatchSceneCore

/// A known player whose body proportions fit an unnamed player's.
public struct PlayerSuggestion: Sendable, Codable, Equatable {
  /// The unnamed track (`P1`).
  public var track: String
  /// The known player's name.
  public var name: String
  /// RMS difference of the median bone lengths, metres.
  public var rmsDifference: Double
  /// How sure: the posterior probability of this player among the stored people not already in the
  /// session and "someone new" (0…1).
  public var confidence: Double
  /// The difference in units of its σ, root mean square over the shared bones.
  public var rmsSigmas: Double
  /// The posterior probability that the track is someone not stored yet.
  public var someoneNew: Double
}

/// A name given to a track that its limb lengths contradict.
public struct NameDisagreement: Sendable, Codable, Equatable {
  public var track: String
  public var name: String
  /// The difference in units of its σ (person's and track's variances added), RMS over the shared bones.
  public var rmsSigmas: Double
  public var bones: Int
  /// The bone that differs most, its length in the track and the named person's, and by how many σ.
  public var worstBone: String
  public var trackLength: Double
  public var personLength: Double
  public var worstSigmas: Double
  /// log₁₀ of how much likelier the lengths are for someone new than for the named person (> 0 here).
  public var log10Odds: Double
}

/// Tells who is who by limb lengths: the posterior over the stored people and "someone new", and one
/// assignment of a session's unnamed tracks to distinct people.
///
/// Likelihood of a stored person P given a track's lengths xᵦ (σ_b, `BodyMeasurementModel`): per shared
/// bone a Gaussian with P's median length μᵦ and variance σᵦ² + τᵦ² (τᵦ: the σ of P's length over their
/// sessions, `BodyProportions.median`). "Someone new" is a person of ordinary stature whose proportions
/// are the track's own up to individual variation: per bone variance (individualShare · xᵦ)² + σᵦ², times
/// the chance of the track's overall size under stature's spread — which makes the matcher prefer "someone
/// new" whenever a known person fits no better than a stranger would. Each likelihood is taken over the
/// bones the track shares with P, so every person is compared with "someone new" on the same bones
/// (a Bayes factor). Prior: "someone new" and each stored person equally likely.
///
/// Bone lengths scale with stature (Winter, *Biomechanics and Motor Control of Human Movement*, 4th ed.,
/// 2009, §4.1): people a few centimetres apart in height differ by several millimetres in the long bones,
/// a session measures each to 2–4 mm.
public struct PlayerMatcher: Sendable {
  public var model: BodyMeasurementModel
  /// A suggestion is made when the assigned person's posterior is at least this.
  public var minConfidence: Double

  public init(model: BodyMeasurementModel = .init(), minConfidence: Double = 0.5) {
    self.model = model
    self.minConfidence = minConfidence
  }

  /// How a track compares with one stored person.
  public struct Comparison: Sendable {
    /// ln L(P) − ln L(someone new), over the shared bones.
    public var logBayesFactor: Double
    public var rmsDifference: Double
    public var rmsSigmas: Double
    public var bones: Int
    public var worst: (bone: String, track: Double, person: Double, sigmas: Double)
  }

  /// `track` against `person`; nil when they share fewer than 4 bones.
  public func compare(_ track: BodyProportions, with person: BodyProportions) -> Comparison? {
    let shared = track.boneLengths.keys.filter { person.boneLengths[$0] != nil }.sorted()
    guard shared.count >= 4 else { return nil }
    var logKnown = 0.0, logNew = 0.0, squares = 0.0, sigmaSquares = 0.0, scaleInformation = 0.0
    var worst = (bone: "", track: 0.0, person: 0.0, sigmas: -1.0)
    for bone in shared {
      let x = track.boneLengths[bone]!, mu = person.boneLengths[bone]!
      let trackVariance = pow(track.sigma(bone, model: model), 2)
      let variance = trackVariance + pow(person.sigma(bone, model: model), 2)
      let d = x - mu
      logKnown += -0.5 * d * d / variance - 0.5 * log(2 * .pi * variance)
      let newVariance = pow(model.individualShare * x, 2) + trackVariance
      logNew += -0.5 * log(2 * .pi * newVariance)
      scaleInformation += x * x / newVariance
      squares += d * d
      sigmaSquares += d * d / variance
      let z = abs(d) / variance.squareRoot()
      if z > worst.sigmas { worst = (bone, x, mu, z) }
    }
    // The track's overall size under stature's spread: ∫ N(s; 1, statureShare²) along the direction the
    // bones scale together, relative to the data's own precision on it.
    let scaleVariance = 1 / max(scaleInformation, 1e-12)
    logNew += 0.5 * log(scaleVariance / (scaleVariance + model.statureShare * model.statureShare))
    let n = Double(shared.count)
    return Comparison(
      logBayesFactor: logKnown - logNew, rmsDifference: (squares / n).squareRoot(), rmsSigmas: (sigmaSquares / n).squareRoot(),
      bones: shared.count, worst: worst)
  }

  /// Per track, the posterior over `candidates` (name → probability) and "someone new" (key nil).
  public func posterior(_ track: BodyProportions, candidates: [String: BodyProportions]) -> [String?: Double] {
    var logs: [String?: Double] = [nil: 0]
    for (name, person) in candidates { if let c = compare(track, with: person) { logs[name] = c.logBayesFactor } }
    let top = logs.values.max()!
    let total = logs.values.reduce(0) { $0 + exp($1 - top) }
    return logs.mapValues { exp($0 - top) / total }
  }

  /// Suggestions for the unnamed `tracks` of one session: the assignment of tracks to distinct known
  /// people (or "someone new") of greatest joint probability (`Assignment`, the Hungarian method), people already
  /// named in the session (`taken`) left out. A track gets a suggestion when it is assigned a known
  /// person with posterior at least `minConfidence`.
  public func suggest(
    tracks: [String: BodyProportions], known: [String: BodyProportions], taken: Set<String> = []
  ) -> [PlayerSuggestion] {
    let candidates = known.filter { !taken.contains($0.key) }
    let names = candidates.keys.sorted()
    let order = tracks.keys.sorted()
    guard !order.isEmpty, !names.isEmpty else { return [] }
    // Columns: each candidate, then one "someone new" per track. Cost: −ln(posterior numerator); the
    // common prior cancels.
    var comparisons: [[Comparison?]] = []
    var cost: [[Double]] = []
    for t in order {
      let row = names.map { compare(tracks[t]!, with: candidates[$0]!) }
      comparisons.append(row)
      cost.append(row.map { $0.map { -$0.logBayesFactor } ?? Assignment.forbidden } + [Double](repeating: 0, count: order.count))
    }
    let assigned = Assignment.solve(cost)
    var out: [PlayerSuggestion] = []
    for (r, t) in order.enumerated() where assigned[r] < names.count {
      let name = names[assigned[r]]
      guard let c = comparisons[r][assigned[r]] else { continue }
      let post = posterior(tracks[t]!, candidates: candidates)
      let confidence = post[name] ?? 0
      guard confidence >= minConfidence else { continue }
      out.append(
        PlayerSuggestion(
          track: t, name: name, rmsDifference: c.rmsDifference, confidence: confidence, rmsSigmas: c.rmsSigmas,
          someoneNew: post[nil] ?? 0))
    }
    return out
  }

  /// The disagreement of a name given to `track` with that name's stored proportions: nil when the
  /// name is not stored, shares fewer than 4 bones, or the lengths favour the named person over someone
  /// new.
  public func check(track: String, name: String, proportions: BodyProportions, known: [String: BodyProportions]) -> NameDisagreement? {
    guard let person = known[name], let c = compare(proportions, with: person), c.logBayesFactor < 0 else { return nil }
    return NameDisagreement(
      track: track, name: name, rmsSigmas: c.rmsSigmas, bones: c.bones, worstBone: c.worst.bone, trackLength: c.worst.track,
      personLength: c.worst.person, worstSigmas: c.worst.sigmas, log10Odds: -c.logBayesFactor / log(10))
  }
}
