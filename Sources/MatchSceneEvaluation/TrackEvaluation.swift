import MatchSceneCore

/// How well estimated tracks match ground truth (from `matchscene simulate`, or a reference system).
public struct TrackEvaluation: Sendable, Codable {
  /// Estimated player track → the true track it follows (by lowest mean joint distance).
  public var playerMatches: [String: String]
  /// Per-joint 3D errors of matched players, metres.
  public var players: ErrorStatistics
  /// Per keypoint name.
  public var perJoint: [String: ErrorStatistics]
  /// Fraction of true joint positions seen by ≥ 2 cameras that have an estimate in the matched track.
  public var playerCoverage: Double
  /// Frames where the estimated track nearest a true player changed from the previous frame.
  public var identitySwitches: Int
  /// The same, per true track.
  public var identitySwitchesPerTrack: [String: Int]
  /// Coverage per true track (see `playerCoverage`).
  public var coveragePerTrack: [String: Double]
  /// Frames where an estimated player track was nearer a true track other than its match (e.g. a
  /// bystander merged into a player).
  public var mergedFrames: Int
  /// Ball errors, metres, over frames where both have a ball.
  public var ball: ErrorStatistics
  /// Fraction of true ball frames seen by ≥ 2 cameras that have an estimated ball.
  public var ballCoverage: Double
  /// Fraction of estimated ball frames with no true ball or an error over `falseBallDistance`.
  public var falseBallRate: Double
  public var falseBallDistance: Double

  /// Compares `estimate` with `truth`, joints matched by their names (the two may have different
  /// skeletons), every present sample (measured or filled) taking part.
  /// - Parameter falseBallDistance: an estimated ball further than this from the truth counts as false.
  public init(estimate: MotionModel, truth: MotionModel, falseBallDistance: Double = 0.1) {
    self.falseBallDistance = falseBallDistance
    struct Key: Hashable { let frame: Int; let joint: String }
    typealias Point = (position: SIMD3<Double>, views: Int)
    /// People's samples by track, (frame, joint name); the ball's by frame (the last ball track's when several).
    func index(_ motion: MotionModel) -> (people: [String: [Key: Point]], ball: [Int: Point]) {
      var people: [String: [Key: Point]] = [:], ball: [Int: Point] = [:]
      for track in motion.tracks {
        for j in 0..<track.jointCount {
          for frame in track.frames {
            let s = track[joint: j, frame: frame]
            guard s.isPresent else { continue }
            let point = (s.position, s.state == .filled ? 0 : Int(s.views))
            if track.kind == .ball {
              ball[frame] = point
            } else {
              people[track.id, default: [:]][Key(frame: frame, joint: motion.skeleton.keypoints[j])] = point
            }
          }
        }
      }
      return (people, ball)
    }
    let (truthTracks, truthBall) = index(truth)
    let (estTracks, estBall) = index(estimate)
    // Match estimated tracks to true tracks greedily by mean distance over shared points.
    var pairs: [(cost: Double, est: String, truth: String, shared: Int)] = []
    for (e, ep) in estTracks {
      for (t, tp) in truthTracks {
        var sum = 0.0, n = 0
        for (k, p) in ep { if let q = tp[k] { sum += length(p.position - q.position); n += 1 } }
        if n > 0 { pairs.append((sum / Double(n), e, t, n)) }
      }
    }
    pairs.sort { $0.shared != $1.shared ? $0.shared > $1.shared : $0.cost < $1.cost }
    var matches: [String: String] = [:], usedTruth = Set<String>()
    for pair in pairs where matches[pair.est] == nil && !usedTruth.contains(pair.truth) && pair.cost < 0.5 {
      matches[pair.est] = pair.truth
      usedTruth.insert(pair.truth)
    }
    playerMatches = matches
    var errors: [Double] = [], jointErrors: [String: [Double]] = [:]
    var covered = 0, coverable = 0
    var perTrack: [String: (Int, Int)] = [:]
    let truthToEst = Dictionary(uniqueKeysWithValues: matches.map { ($1, $0) })
    for (t, tp) in truthTracks {
      let ep = truthToEst[t].flatMap { estTracks[$0] } ?? [:]
      var c = 0, n = 0
      defer { perTrack[t] = (c, n) }
      for (k, q) in tp {
        if q.views >= 2 { coverable += 1; n += 1 }
        if let p = ep[k] {
          if q.views >= 2 { covered += 1; c += 1 }
          let d = length(p.position - q.position)
          errors.append(d)
          jointErrors[k.joint, default: []].append(d)
        }
      }
    }
    players = ErrorStatistics(errors)
    perJoint = jointErrors.mapValues(ErrorStatistics.init)
    playerCoverage = coverable > 0 ? Double(covered) / Double(coverable) : 1
    coveragePerTrack = perTrack.mapValues { $0.1 > 0 ? Double($0.0) / Double($0.1) : 1 }

    // Identity: per frame, the estimated track nearest each true track's centre.
    func centres(_ tracks: [String: [Key: Point]]) -> [Int: [String: SIMD3<Double>]] {
      var sums: [Int: [String: (SIMD3<Double>, Int)]] = [:]
      for (id, points) in tracks {
        for (k, p) in points {
          let s = sums[k.frame]?[id] ?? (.zero, 0)
          sums[k.frame, default: [:]][id] = (s.0 + p.position, s.1 + 1)
        }
      }
      return sums.mapValues { $0.mapValues { $0.0 / Double($0.1) } }
    }
    let truthCentres = centres(truthTracks), estCentres = centres(estTracks)
    var last: [String: String] = [:]
    var switches = 0, merged = 0
    var switchesPerTrack: [String: Int] = Dictionary(uniqueKeysWithValues: truthTracks.keys.map { ($0, 0) })
    for frame in truthCentres.keys.sorted() {
      let tc = truthCentres[frame]!, ec = estCentres[frame] ?? [:]
      for (t, c) in tc {
        guard let nearest = ec.min(by: { length($0.value - c) < length($1.value - c) }), length(nearest.value - c) < 0.5 else { continue }
        if let previous = last[t], previous != nearest.key {
          switches += 1
          switchesPerTrack[t, default: 0] += 1
        }
        last[t] = nearest.key
      }
      for (e, c) in ec {
        guard let mine = matches[e], let nearest = tc.min(by: { length($0.value - c) < length($1.value - c) }) else { continue }
        if nearest.key != mine { merged += 1 }
      }
    }
    identitySwitches = switches
    identitySwitchesPerTrack = switchesPerTrack
    mergedFrames = merged

    var ballErrors: [Double] = []
    var ballCovered = 0, ballCoverable = 0, falseBalls = 0
    for (f, q) in truthBall where q.views >= 2 {
      ballCoverable += 1
      if estBall[f] != nil { ballCovered += 1 }
    }
    for (f, p) in estBall {
      if let q = truthBall[f] {
        let d = length(p.position - q.position)
        ballErrors.append(d)
        if d > falseBallDistance { falseBalls += 1 }
      } else {
        falseBalls += 1
      }
    }
    ball = ErrorStatistics(ballErrors)
    ballCoverage = ballCoverable > 0 ? Double(ballCovered) / Double(ballCoverable) : 1
    falseBallRate = estBall.isEmpty ? 0 : Double(falseBalls) / Double(estBall.count)
  }

  /// A few lines for people.
  public var summary: String {
    func mm(_ x: Double) -> String { String(format: "%.1f mm", x * 1000) }
    return """
      players: mean \(mm(players.mean)), median \(mm(players.median)), p95 \(mm(players.p95)) over \(players.count) joints; \
      coverage \(String(format: "%.2f%%", 100 * playerCoverage)); identity switches \(identitySwitches); merged frames \(mergedFrames)
      ball: mean \(mm(ball.mean)), median \(mm(ball.median)), p95 \(mm(ball.p95)) over \(ball.count) frames; \
      coverage \(String(format: "%.2f%%", 100 * ballCoverage)) of every true ball frame seen by ≥ 2 cameras, out of play \
      included; false ball frames \(String(format: "%.2f%%", 100 * falseBallRate))
      matches: \(playerMatches.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: ", "))
      per true track: \(coveragePerTrack.keys.sorted().map { String(format: "%@ coverage %.2f%% switches %d", $0, 100 * coveragePerTrack[$0]!, identitySwitchesPerTrack[$0] ?? 0) }.joined(separator: "; "))
      """
  }
}

import Foundation
