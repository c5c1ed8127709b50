import MatchSceneCore

/// The point won at the end of one rally, and the score after it.
public struct ScoreEntry: Sendable, Codable, Equatable {
  public var rally: Int
  public var frame: Int
  public var time: Double
  /// The track that won the point, when it can be told.
  public var winner: String?
  /// Points per track won in the whole recording after this rally (across games).
  public var score: [String: Int]
  /// Why the point was won (`PointReason`); nil when no winner could be told.
  public var reason: PointReason?
  /// Points per track in the current game after this rally (0–0 after a game's last point).
  public var gamePoints: [String: Int]?
  /// Games per track in the current match after this rally.
  public var games: [String: Int]?
  /// The track to serve the next point (ITTF 2.13.3).
  public var server: String?
  /// Each track's end of the table for the next point (`negative_x` or `positive_x`, venue frame).
  public var ends: [String: String]?

  public init(rally: Int, frame: Int, time: Double, winner: String?, score: [String: Int]) {
    self.rally = rally
    self.frame = frame
    self.time = time
    self.winner = winner
    self.score = score
  }
}

/// Keeps the score from the events, by table-tennis rules: each rally's point goes to the player
/// `PointJudge` names (ITTF 2.10), and `ScoreState` counts games, the service order and the ends
/// (ITTF 2.11–2.14).
public enum Scoreboard {
  /// - Parameters:
  ///   - events: the match's events (rally starts/ends, hits, bounces, net), positions in the venue frame.
  ///   - sides: the player tracks (each one's half, `negative_x` or `positive_x`, at the start: used
  ///     only to know who the two players are).
  ///   - rules: games, service, match length.
  ///   - undecidedAfter: a rally ending at or after this frame (the ball still flying when the
  ///     recording stopped) gets no point.
  /// - Returns: one entry per rally with a winner or not; entries without a winner leave the score as it was.
  public static func compute(
    _ events: [MatchEvent], sides: [String: String], rules: ScoreRules = .init(), undecidedAfter: Int? = nil
  ) -> [ScoreEntry] {
    let calls = self.calls(events, players: Array(sides.keys), undecidedAfter: undecidedAfter)
    return tally(calls, players: Array(sides.keys), rules: rules)
  }

  /// One rally's outcome before the score is kept: who won it and why, who served and from which end.
  public struct PointCall: Sendable, Equatable {
    public var rally: Int
    public var frame: Int
    public var time: Double
    public var winner: String?
    public var reason: PointReason?
    /// The rally's server (its first stroke) and whether it was struck at negative x.
    public var server: String?
    public var serverAtNegativeX: Bool?
    public init(rally: Int, frame: Int, time: Double, winner: String? = nil, reason: PointReason? = nil) {
      self.rally = rally
      self.frame = frame
      self.time = time
      self.winner = winner
      self.reason = reason
    }
  }

  /// Each rally's winner by `PointJudge`, in time order (a rally ending at or after `undecidedAfter`
  /// has no winner).
  public static func calls(_ events: [MatchEvent], players: [String], undecidedAfter: Int? = nil) -> [PointCall] {
    let byRally = Dictionary(grouping: events.filter { $0.rally != nil }, by: { $0.rally! })
    var out: [PointCall] = []
    for end in events.filter({ $0.type == .rallyEnd }).sorted(by: { $0.frame < $1.frame }) {
      let rally = end.rally ?? out.count + 1
      var call = PointCall(rally: rally, frame: end.frame, time: end.time)
      let rallyEvents = byRally[rally] ?? []
      let serve = rallyEvents.filter { $0.type == .hit }.min { $0.frame < $1.frame }
      call.server = serve?.track
      call.serverAtNegativeX = serve?.position.map { $0.x < 0 }
      defer { out.append(call) }
      if let undecidedAfter, end.frame >= undecidedAfter { continue }
      guard let verdict = PointJudge.judge(rallyEvents) else { continue }
      let opponent = Set(players).subtracting([verdict.lastHitter]).sorted().first
      call.winner = verdict.lastHitterWins ? verdict.lastHitter : opponent
      if call.winner != nil { call.reason = verdict.reason }
    }
    return out
  }

  /// Keeps the score of `calls` (calls without a winner leave it as it was): player 0 of the
  /// `ScoreState` is the first call's server (else its winner), the other the other of `players`.
  public static func tally(_ calls: [PointCall], players: [String], rules: ScoreRules = .init()) -> [ScoreEntry] {
    var total: [String: Int] = Dictionary(uniqueKeysWithValues: players.map { ($0, 0) })
    var order: [String] = []
    var state: ScoreState?
    var firstAtNegativeX = true
    return calls.map { call in
      var entry = ScoreEntry(rally: call.rally, frame: call.frame, time: call.time, winner: nil, score: total)
      guard let winner = call.winner else { return entry }
      if state == nil {
        let first = call.server ?? winner
        guard let other = Set(players).union([winner]).subtracting([first]).sorted().first else { return entry }
        order = [first, other]
        state = ScoreState(rules: rules, firstServer: 0)
        firstAtNegativeX = call.server != nil ? (call.serverAtNegativeX ?? true) : true
      }
      guard let index = order.firstIndex(of: winner) else { return entry }
      state!.award(to: index)
      total[winner, default: 0] += 1
      entry.winner = winner
      entry.reason = call.reason
      entry.score = total
      fill(&entry, state: state!, order: order, firstAtNegativeX: firstAtNegativeX)
      return entry
    }
  }

  /// The game, games, server and ends of `state` into `entry`.
  static func fill(_ entry: inout ScoreEntry, state: ScoreState, order: [String], firstAtNegativeX: Bool) {
    entry.gamePoints = [order[0]: state.points[0], order[1]: state.points[1]]
    entry.games = [order[0]: state.games[0], order[1]: state.games[1]]
    entry.server = order[state.server]
    let zeroNegative = firstAtNegativeX == (state.endsSign > 0)
    entry.ends = [order[0]: zeroNegative ? "negative_x" : "positive_x", order[1]: zeroNegative ? "positive_x" : "negative_x"]
  }

  /// A `point` event per entry with a winner, at the rally's end: `track` the winner, `reason`, `score`
  /// (points in the game after it), `games`, `server` (next), `rally`.
  public static func pointEvents(_ entries: [ScoreEntry], events: [MatchEvent]) -> [MatchEvent] {
    let ends = Dictionary(events.filter { $0.type == .rallyEnd && $0.rally != nil }.map { ($0.rally!, $0) }, uniquingKeysWith: { a, _ in a })
    return entries.compactMap { entry in
      guard let winner = entry.winner else { return nil }
      var e = MatchEvent(type: .point, frame: entry.frame, time: entry.time, track: winner, rally: entry.rally)
      e.position = ends[entry.rally]?.position
      e.reason = entry.reason
      e.score = entry.gamePoints
      e.games = entry.games
      e.server = entry.server
      return e
    }
  }

  /// `events` with the point events of `entries` inserted, each after the events of its frame.
  public static func addingPoints(_ entries: [ScoreEntry], to events: [MatchEvent]) -> [MatchEvent] {
    let points = pointEvents(entries, events: events)
    guard !points.isEmpty else { return events }
    var out = events.filter { $0.type != .point }
    for p in points {
      let i = out.firstIndex { $0.frame > p.frame } ?? out.endIndex
      out.insert(p, at: i)
    }
    return out
  }

  /// Each player's half of the table (`negative_x` or `positive_x` of the venue frame) from the mean x of
  /// their samples: players stand behind their end. `motion` must be in venue coordinates; of more than
  /// two players, the two seen most.
  public static func sides(of motion: MotionModel) -> [String: String] {
    var sums: [(id: String, sum: Double, count: Int)] = []
    for t in motion.playerTracks {
      var sum = 0.0, count = 0
      for sample in motion.tracks[t].samples where sample.isPresent {
        sum += sample.position.x
        count += 1
      }
      if count > 0 { sums.append((motion.tracks[t].id, sum, count)) }
    }
    let players = sums.sorted { $0.count > $1.count }.prefix(2)
    return Dictionary(uniqueKeysWithValues: players.map { ($0.id, $0.sum / Double($0.count) < 0 ? "negative_x" : "positive_x") })
  }
}
