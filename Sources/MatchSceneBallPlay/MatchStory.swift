import MatchSceneCore

/// A rally whose automatic point and a player's claim name different winners.
public struct ScoreDisagreement: Sendable, Codable, Equatable {
  public var rally: Int
  public var frame: Int
  public var time: Double
  /// The winner by the rules (`PointJudge`), nil when the rally could not be judged.
  public var automatic: String?
  /// The player who claimed the point.
  public var claimed: String
  /// Which one the score followed (`automatic` or `claim`).
  public var kept: String
}

/// The match's story after the events: hand-raise claims, each rally's point and the score by the
/// policy of `ScoreSettings`, the disagreements between rules and claims.
public struct MatchStory: Sendable {
  /// Events with `claim` and `point` events added, in time order.
  public var events: [MatchEvent]
  public var scores: [ScoreEntry]
  public var disagreements: [ScoreDisagreement]

  /// Tells the story of `motion` (venue frame, z up) and its `events`.
  /// - Parameters:
  ///   - claimOptions: the claim detector's settings; nil: the defaults with `settings.claimHold`.
  ///   - undecidedAfter: rallies ending at or after this frame (the recording stopped with the ball in
  ///     play) get no point.
  public init(
    motion: MotionModel, events: [MatchEvent], settings: ScoreSettings, claimOptions: ClaimOptions? = nil,
    undecidedAfter: Int? = nil
  ) {
    // Explicit claim options win over the settings' hold.
    let claimOptions = claimOptions ?? ClaimOptions(hold: settings.claimHold)
    let base = events.filter { $0.type != .claim && $0.type != .point }
    let claims = motion.handRaiseClaims(hits: base.filter { $0.type == .hit }, options: claimOptions)
    let players = Array(Scoreboard.sides(of: motion).keys)
    var calls = Scoreboard.calls(base, players: players, undecidedAfter: undecidedAfter)
    // Each claim belongs to the rally that ended last before it (from 1 s before its end), until the
    // next rally starts.
    let starts = base.filter { $0.type == .rallyStart }.map(\.frame).sorted()
    let slack = Int(motion.fps.rounded())
    func callIndex(of claim: MatchEvent) -> Int? {
      guard let i = calls.lastIndex(where: { $0.frame - slack <= claim.frame }) else { return nil }
      let nextStart = starts.first { $0 > calls[i].frame } ?? Int.max
      return claim.frame <= nextStart ? i : nil
    }
    var disagreements: [ScoreDisagreement] = []
    var claimed = Set<Int>()
    for claim in claims {
      guard let i = callIndex(of: claim), let who = claim.track, !claimed.contains(i) else { continue }
      claimed.insert(i)
      guard calls[i].winner != who else { continue }
      let overrides = settings.policy == .override
      disagreements.append(ScoreDisagreement(
        rally: calls[i].rally, frame: calls[i].frame, time: calls[i].time, automatic: calls[i].winner, claimed: who,
        kept: overrides ? "claim" : "automatic"))
      if overrides {
        calls[i].winner = who
        calls[i].reason = .claim
      }
    }
    if settings.policy == .claims {
      // Points are the claims, each at its own moment; the first server is the first rally's.
      let first = calls.first
      calls = claims.enumerated().map { k, claim in
        var call = Scoreboard.PointCall(rally: claim.rally ?? k + 1, frame: claim.frame, time: claim.time, winner: claim.track, reason: .claim)
        if k == 0 {
          call.server = first?.server
          call.serverAtNegativeX = first?.serverAtNegativeX
        }
        return call
      }
      disagreements = []
    }
    let playersAll = Array(Set(players).union(claims.compactMap(\.track)))
    scores = Scoreboard.tally(calls, players: playersAll, rules: settings.rules)
    var story = base
    for claim in claims { story.insert(claim, at: story.firstIndex { $0.frame > claim.frame } ?? story.endIndex) }
    story = Scoreboard.addingPoints(scores, to: story)
    self.events = story
    self.disagreements = disagreements
  }
}
