import MatchSceneCore

/// The point won at the end of one rally, and the score after it.
public struct ScoreEntry: Sendable, Codable, Equatable {
  public var rally: Int
  public var frame: Int
  public var time: Double
  /// The track that won the point, when it can be told.
  public var winner: String?
  /// Points per track after this rally.
  public var score: [String: Int]
}

/// Keeps the score from the events, by table-tennis rules (ITTF 2.10): the player whose last hit the
/// opponent failed to return wins the point — provided that hit bounced on the opponent's half; a
/// last hit that went into the net, off the table, or bounced only on the hitter's own half loses it.
public enum Scoreboard {
  /// - Parameters:
  ///   - events: the match's events (rally starts/ends, hits, bounces, net).
  ///   - sides: each player track's half, `negative_x` or `positive_x`.
  public static func compute(_ events: [MatchEvent], sides: [String: String]) -> [ScoreEntry] {
    var score: [String: Int] = Dictionary(uniqueKeysWithValues: sides.keys.map { ($0, 0) })
    var entries: [ScoreEntry] = []
    var lastHitter: String?
    var bouncedOnOpponent = false
    for e in events.sorted(by: { $0.frame < $1.frame }) {
      switch e.type {
      case .rallyStart, .hit:
        lastHitter = e.track
        bouncedOnOpponent = false
      case .bounce:
        if e.surface == "table", let hitter = lastHitter, let side = sides[hitter], let bounceSide = e.side, bounceSide != side {
          bouncedOnOpponent = true
        }
      case .net, .point, .claim, .zoneEnter, .zoneExit, .ballAtRest:
        break
      case .rallyEnd:
        var winner: String?
        if let hitter = lastHitter {
          winner = bouncedOnOpponent ? hitter : sides.keys.first { $0 != hitter }
        }
        if let winner { score[winner, default: 0] += 1 }
        entries.append(ScoreEntry(rally: e.rally ?? entries.count + 1, frame: e.frame, time: e.time, winner: winner, score: score))
        lastHitter = nil
      }
    }
    return entries
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

  /// The row view of `sides(of:)` (people of kind `player` only).
  public static func sides(of reconstruction: Reconstruction) -> [String: String] { sides(of: MotionModel(reconstruction)) }
}
