import MatchSceneCore

/// Who is who: the people who play, and everyone else.
///
/// At a table (table tennis) a player is someone who stands behind an end of the table while the ball
/// is in play: seen there in at least `minimumShare` of the rally frames (without rallies: in most of
/// the frames they are seen). The two ends are the regions beyond the table's end lines (ITTF 2.1.1),
/// from 0.3 m inside them to `endDepth` beyond, within `endWidth` of the centre line. On a court a
/// player is someone whose centre is inside the court (with `margin` around it) for most of the frames
/// they are seen. With no venue area at all, or when no one qualifies, the two people seen longest play.
///
/// Players are named `P1`, `P2`… and everyone else `B1`, `B2`…. At a table, players are named by
/// their end in the first rally they play: the −x end first (`P1`), then the +x end; others, and
/// players at a court, longest-seen first.
public struct PlayerRoles: Sendable {
  /// Share of all rally frames a player is seen behind an end, at least.
  public var minimumShare = 0.3
  /// How far behind an end line a player may stand, metres.
  public var endDepth = 4.0
  /// How far from the centre line (sideways) a player may stand, metres.
  public var endWidth = 3.0
  /// Slack around the venue's area when there are no rallies, metres.
  public var margin = 1.0
  /// Players to keep when nothing tells them apart.
  public var fallbackPlayers = 2
  /// At a table, at most this many players per end (1: singles; 2: doubles). When more qualify at an
  /// end — a bystander walking across behind a player stands there too — those the strokes were given
  /// to most (`hit` events), then those seen there longest, play.
  public var playersPerEnd = 1

  public init() {}

  /// The new id and kind of every person track of `motion` (venue coordinates).
  /// - Parameters:
  ///   - events: the match's events (rallies); may be empty.
  ///   - area: the venue's half length and half width (the table's for table tennis, the court's), metres.
  ///   - table: whether the area is a table, played from behind its ends.
  public func assign(
    _ motion: MotionModel, events: [MatchEvent], area: (halfLength: Double, halfWidth: Double)?, table: Bool
  ) -> [String: (id: String, kind: TrackKind)] {
    let people = motion.personTracks
    let torso = motion.skeleton.torso
    let rallies = Rallies.ranges(events)
    // Per person: frames seen, the votes for being a player, and (at a table) the mean x over the first
    // rally in which they stood behind an end.
    var seen: [Int] = [], votes: [Int] = [], firstEnd: [Double?] = []
    for t in people {
      let track = motion.tracks[t]
      var n = 0, v = 0
      var endRally: Int?, endSum = 0.0, endCount = 0
      for frame in track.frames {
        guard let centre = Self.centre(track, joints: torso, frame: frame) else { continue }
        n += 1
        guard let area else { continue }
        if table {
          if !rallies.isEmpty && !rallies.contains(where: { $0.contains(frame) }) { continue }
          if abs(centre.x) > area.halfLength - 0.3, abs(centre.x) < area.halfLength + endDepth, abs(centre.y) < endWidth {
            v += 1
            if let r = rallies.firstIndex(where: { $0.contains(frame) }), endRally == nil || endRally == r {
              endRally = r
              endSum += centre.x
              endCount += 1
            }
          }
        } else if abs(centre.x) <= area.halfLength + margin, abs(centre.y) <= area.halfWidth + margin {
          v += 1
        }
      }
      seen.append(n)
      votes.append(v)
      firstEnd.append(endCount > 0 ? endSum / Double(endCount) : nil)
    }
    let rallyFrames = rallies.reduce(0) { $0 + $1.count }
    var isPlayer = people.indices.map { i -> Bool in
      guard area != nil else { return false }
      if table && !rallies.isEmpty { return Double(votes[i]) >= minimumShare * Double(rallyFrames) }
      return seen[i] > 0 && 2 * votes[i] > seen[i]
    }
    if table, !rallies.isEmpty, playersPerEnd > 0 {
      var hits: [String: Int] = [:]
      for e in events where e.type == .hit { if let t = e.track { hits[t, default: 0] += 1 } }
      for end in [true, false] {
        let here = people.indices.filter { isPlayer[$0] && firstEnd[$0].map { ($0 < 0) == end } == true }
        let ranked = here.sorted {
          let (a, b) = (hits[motion.tracks[people[$0]].id] ?? 0, hits[motion.tracks[people[$1]].id] ?? 0)
          return a != b ? a > b : votes[$0] != votes[$1] ? votes[$0] > votes[$1] : $0 < $1
        }
        for i in ranked.dropFirst(playersPerEnd) { isPlayer[i] = false }
      }
    }
    if !isPlayer.contains(true) {
      // Nothing tells players apart: the people seen longest play.
      for i in people.indices.sorted(by: { seen[$0] > seen[$1] }).prefix(fallbackPlayers) { isPlayer[i] = true }
    }
    // Players at a table by end (−x first) in the first rally they play; then longest-seen first, ties
    // by the old id.
    func endKey(_ i: Int) -> Int {
      guard table, let x = firstEnd[i] else { return 2 }
      return x < 0 ? 0 : 1
    }
    let order = people.indices.sorted {
      if endKey($0) != endKey($1) { return endKey($0) < endKey($1) }
      return seen[$0] != seen[$1] ? seen[$0] > seen[$1] : motion.tracks[people[$0]].id < motion.tracks[people[$1]].id
    }
    var out: [String: (id: String, kind: TrackKind)] = [:]
    var players = 0, others = 0
    for i in order {
      let old = motion.tracks[people[i]].id
      if isPlayer[i] {
        players += 1
        out[old] = ("P\(players)", .player)
      } else {
        others += 1
        out[old] = ("B\(others)", .person)
      }
    }
    return out
  }

  /// The mean of the torso joints present at `frame`.
  static func centre(_ track: MotionTrack, joints: [Int], frame: Int) -> SIMD3<Double>? {
    var sum = SIMD3<Double>.zero
    var n = 0
    for j in joints {
      if let p = track.position(joint: j, frame: frame) {
        sum += p
        n += 1
      }
    }
    return n > 0 ? sum / Double(n) : nil
  }
}

extension MotionModel {
  /// The model with its people renamed and re-kinded by `roles` (old id → new id and kind), sorted.
  public func renamingTracks(_ roles: [String: (id: String, kind: TrackKind)]) -> MotionModel {
    var out = self
    for t in out.tracks.indices {
      guard let role = roles[out.tracks[t].id] else { continue }
      out.tracks[t].id = role.id
      out.tracks[t].kind = role.kind
    }
    out.sortTracks()
    return out
  }
}

extension Array where Element == MatchEvent {
  /// The events with their track ids renamed by `roles`.
  public func renamingTracks(_ roles: [String: (id: String, kind: TrackKind)]) -> [MatchEvent] {
    map { event in
      var e = event
      if let track = e.track, let role = roles[track] { e.track = role.id }
      return e
    }
  }
}
