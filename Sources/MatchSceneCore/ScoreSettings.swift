/// Who keeps the score: the rallies (automatic), the players' hand-raise claims, or both.
public enum ScorePolicy: String, Sendable, Codable, CaseIterable {
  /// Points from the rallies by the rules (`PointJudge`); claims are listed but do not score.
  case automatic
  /// Points from claims only, as a scoreboard app where players keep control of the score.
  case claims
  /// Points from the rallies; a claim after a rally gives its point to the claimer when the two
  /// disagree, and the disagreement is listed.
  case override
}

/// How a match is scored: `match.toml`'s `[score]` table.
///
/// ```toml
/// [score]
/// points_per_game = 11   # win by 2
/// best_of = 5
/// policy = "automatic"   # or "claims", "override"
/// claim_hold = 1.0       # seconds a hand must be held up to claim
/// ```
public struct ScoreSettings: Sendable, Equatable, Codable {
  public var rules = ScoreRules()
  public var policy = ScorePolicy.automatic
  /// Seconds the non-dominant hand must be held up for a claim.
  public var claimHold = 1.0
  public init(rules: ScoreRules = .init(), policy: ScorePolicy = .automatic, claimHold: Double = 1.0) {
    self.rules = rules
    self.policy = policy
    self.claimHold = claimHold
  }
}
