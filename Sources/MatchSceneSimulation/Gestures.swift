import MatchSceneCore

/// Arm gestures the simulated players make between rallies: hand-raise claims (and the moves a claim
/// detector must not take for one). All off by default, so a match without them is bit for bit what
/// it was before they existed.
public struct GestureConfig: Sendable, Equatable {
  /// Probability that a point's winner raises the free hand to claim it.
  public var claimProbability: Double
  /// Probability that, instead, the point's loser claims it (a wrong claim).
  public var wrongClaimProbability: Double
  /// How long a claiming hand stays up, seconds (the detector's default hold is 1 s).
  public var claimHold: ClosedRange<Double>
  /// Probability, per pause, of a decoy by a player who is not claiming: the racket arm held straight
  /// up (a smash's reach, held), or both arms stretched overhead.
  public var decoyProbability: Double
  /// Serves end with the free hand following the toss up above the head for a moment.
  public var highTosses: Bool

  public init(
    claimProbability: Double = 0, wrongClaimProbability: Double = 0, claimHold: ClosedRange<Double> = 1.25...1.8,
    decoyProbability: Double = 0, highTosses: Bool = false
  ) {
    self.claimProbability = claimProbability
    self.wrongClaimProbability = wrongClaimProbability
    self.claimHold = claimHold
    self.decoyProbability = decoyProbability
    self.highTosses = highTosses
  }

  /// Claims after most points (10 % of them wrong), decoys in 60 % of the pauses, high tosses.
  public static let claimsAndDecoys = GestureConfig(
    claimProbability: 0.8, wrongClaimProbability: 0.1, decoyProbability: 0.6, highTosses: true)

  func validate() throws {
    for (key, p) in [("claim_probability", claimProbability), ("wrong_claim_probability", wrongClaimProbability),
                     ("decoy_probability", decoyProbability)] where !(p >= 0 && p <= 1) {
      throw InputError(file: "simulation", location: .key("gestures.\(key)"), "must lie in [0, 1], got \(p)")
    }
    guard claimProbability + wrongClaimProbability <= 1 else {
      throw InputError(file: "simulation", location: .key("gestures"), "claim and wrong-claim probabilities add up to more than 1")
    }
    guard claimHold.lowerBound >= 0.2, claimHold.upperBound <= 10 else {
      throw InputError(file: "simulation", location: .key("gestures.claim_hold"), "must lie in 0.2…10 s")
    }
  }
}

/// One simulated arm gesture, with its truth.
public struct SimulatedGesture: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// The free hand held straight up: a claim (a `claim` event is in the truth).
    case claim
    /// The racket arm held straight up (a smash's reach): never a claim.
    case smash
    /// Both arms stretched overhead: never a claim.
    case stretch
    /// The free hand following a serve's toss above the head for a moment: never a claim.
    case toss
  }
  public var kind: Kind
  /// Player index (0: `P1`).
  public var player: Int
  /// When the arm starts to rise, reaches the top, starts down and is back, seconds.
  public var start: Double
  public var top: Double
  public var release: Double
  public var end: Double
}

/// Plans the gestures of the pauses between rallies from its own random stream.
struct GesturePlanner {
  let config: GestureConfig
  let players: [PlayerGeometry]
  var rng: SeededGenerator
  /// Seconds to raise or lower an arm.
  static let rise = 0.3

  init(config: GestureConfig, seed: UInt64, players: [PlayerGeometry]) {
    self.config = config
    self.players = players
    rng = RandomStream.gestures.generator(seed: seed)
  }

  /// After a point decided at `decided`, before the next serve's hold at `nextHold`: maybe a claim
  /// (by the winner, or wrongly by the loser) with its `claim` truth, else maybe a decoy.
  mutating func plan(after decided: Double, winner: Int, nextHold: Double, into script: inout RallyScript) {
    guard config.claimProbability > 0 || config.decoyProbability > 0 else { return }
    let start = decided + rng.uniform(0.3...0.6)
    // The server walks to the stance 0.2 s before the hold; keep every arm free by then.
    let latest = nextHold - 0.7
    let draw = rng.uniform(0...1)
    let hold = rng.uniform(config.claimHold)
    let end = start + 2 * Self.rise + hold
    guard end <= latest else { return }
    let who: Int?
    if draw < config.claimProbability {
      who = winner
    } else if draw < config.claimProbability + config.wrongClaimProbability {
      who = 1 - winner
    } else {
      who = nil
    }
    let top = start + Self.rise, release = end - Self.rise
    if let who {
      script.gestures.append(SimulatedGesture(kind: .claim, player: who, start: start, top: top, release: release, end: end))
      // The truth's claim is complete once the hand has been up for the detector's default hold, 1 s.
      var e = MatchEvent(type: .claim, frame: 0, time: top + 1.0, track: players[who].id)
      e.hand = players[who].handedness == .right ? .left : .right
      e.duration = release - top
      script.claims.append(e)
    }
    // A decoy by a player who is not claiming (the other one, or either when nobody claims).
    if rng.uniform(0...1) < config.decoyProbability {
      let kind: SimulatedGesture.Kind = rng.chance(0.5) ? .smash : .stretch
      let player = who.map { 1 - $0 } ?? rng.integer(0...1)
      script.gestures.append(SimulatedGesture(kind: kind, player: player, start: start, top: top, release: release, end: end))
    }
  }
}
