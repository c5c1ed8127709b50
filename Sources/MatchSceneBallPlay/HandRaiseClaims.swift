import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Settings of the hand-raise claim detector (`MotionModel.handRaiseClaims`). Heights are along the
/// motion's z axis (venue frame: z up).
public struct ClaimOptions: Sendable, Equatable {
  /// Seconds the hand must stay up for a claim.
  public var hold: Double = 1.0
  /// The wrist is up when it is this far above the nose (or head), metres…
  public var raiseMargin: Double = 0.10
  /// …and down again when it is less than this far above it (hysteresis on height), metres.
  public var releaseMargin: Double = 0.03
  /// The elbow counts as extended from this angle between upper arm and forearm, degrees (180: straight).
  public var minElbowAngle: Double = 130
  /// After a claim, the hand must be down this long before another claim can start (hysteresis on
  /// time: one claim per raise), seconds.
  public var rearm: Double = 0.5
  /// Frames without the joints inside a raise that do not break it (a missed detection), seconds.
  public var maxGap: Double = 0.15
  public init(hold: Double = 1.0) { self.hold = hold }

  /// Checks the settings. - Throws: `InputError` naming the setting.
  public func validate() throws {
    guard hold.isFinite, hold >= 0.2, hold <= 10 else {
      throw InputError(file: "claim options", location: .key("hold"), "must lie in 0.2…10 seconds, got \(hold)")
    }
    guard releaseMargin < raiseMargin else {
      throw InputError(file: "claim options", location: .key("release_margin"), "must be below raise_margin (\(raiseMargin)), got \(releaseMargin)")
    }
  }
}

extension MotionModel {
  /// Hand-raise claims: a player holds the non-dominant hand up — the wrist above the nose by
  /// `raiseMargin`, the elbow extended — for `hold` seconds, as in scoreboard apps where the winner of
  /// a point raises the free hand to claim it. The racket hand never claims, so a smash does not; a
  /// serve toss or a stretch for a ball lifts the free hand for a moment, shorter than the hold; a
  /// stretch with both hands up is not a claim (the racket hand must stay below its shoulder). One
  /// claim per raise: the hand must drop below `releaseMargin` and stay down `rearm` seconds before
  /// the next (hysteresis on height and time).
  ///
  /// The dominant (racket) hand of each player is the wrist nearer the ball at its `hit` events; a
  /// player without hits takes the wrist that moves faster on average (the racket hand swings).
  /// Works on any motion with the wrists, elbows, shoulders and the nose (or head), z up — a
  /// multi-camera reconstruction in the venue frame, or one device's 3D skeletons.
  /// - Returns: `claim` events (`track`, `hand` = `left`/`right`, at the moment the hold is complete,
  ///   `duration` = how long the hand had been up then), in time order.
  public func handRaiseClaims(hits: [MatchEvent] = [], options: ClaimOptions = .init()) -> [MatchEvent] {
    let s = skeleton
    guard let lw = s.index(of: .leftWrist), let rw = s.index(of: .rightWrist), let le = s.index(of: .leftElbow),
      let re = s.index(of: .rightElbow), let ls = s.index(of: .leftShoulder), let rs = s.index(of: .rightShoulder),
      let head = s.index(of: .nose) ?? s.index(of: .head)
    else { return [] }
    var claims: [MatchEvent] = []
    for t in personTracks where tracks[t].kind == .player {
      let track = tracks[t]
      let rightDominant = dominantIsRight(track, hits: hits.filter { $0.type == .hit && $0.track == track.id }, left: lw, right: rw)
      let (wrist, elbow, shoulder) = rightDominant ? (lw, le, ls) : (rw, re, rs)
      let (racketWrist, racketShoulder) = rightDominant ? (rw, rs) : (lw, ls)
      let holdFrames = Int((options.hold * fps).rounded())
      let gapFrames = Int((options.maxGap * fps).rounded())
      let rearmFrames = Int((options.rearm * fps).rounded())
      var upSince: Int?, lastUp = Int.min
      var claimed = false, armed = true, downAt = Int.min
      /// The current raise ends: after a claim, the next needs the hand down `rearm` first.
      func release(at frame: Int) {
        if upSince != nil, claimed {
          armed = false
          downAt = frame
        }
        upSince = nil
      }
      for frame in track.frames {
        guard let w = track.position(joint: wrist, frame: frame), let n = track.position(joint: head, frame: frame) else {
          if upSince != nil, frame - lastUp > gapFrames { release(at: frame) }
          continue
        }
        let height = w.z - n.z
        let racketDown = track.position(joint: racketWrist, frame: frame).flatMap { r in
          track.position(joint: racketShoulder, frame: frame).map { r.z < $0.z }
        } ?? true
        let extended = track.position(joint: elbow, frame: frame).flatMap { e in
          track.position(joint: shoulder, frame: frame).map { sh in Self.angle(sh - e, w - e) >= options.minElbowAngle }
        } ?? false
        if !armed {
          if height >= options.releaseMargin { downAt = frame } else if frame - downAt >= rearmFrames { armed = true }
        }
        let up = racketDown && (upSince == nil ? height >= options.raiseMargin && extended : height >= options.releaseMargin)
        guard up else {
          release(at: frame)
          continue
        }
        if upSince == nil {
          guard armed else { continue }
          upSince = frame
          claimed = false
        }
        lastUp = frame
        if !claimed, let since = upSince, frame - since >= holdFrames {
          var e = MatchEvent(type: .claim, frame: frame, time: time(frame), track: track.id, position: w)
          e.hand = rightDominant ? .left : .right
          e.duration = Double(frame - since) / fps
          claims.append(e)
          claimed = true
        }
      }
    }
    return claims.sorted { ($0.frame, $0.track ?? "") < ($1.frame, $1.track ?? "") }
  }

  /// The angle between two vectors, degrees.
  static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let la = length(a), lb = length(b)
    guard la > 0, lb > 0 else { return 0 }
    return acos(max(-1, min(1, dot(a, b) / (la * lb)))) * 180 / .pi
  }

  /// Whether the right wrist holds the racket: nearer the ball at most of `hits`; without hits, the
  /// wrist with the larger mean speed.
  func dominantIsRight(_ track: MotionTrack, hits: [MatchEvent], left: Int, right: Int) -> Bool {
    var votes = 0
    for hit in hits {
      guard let ball = hit.position else { continue }
      guard let l = track.position(joint: left, frame: hit.frame), let r = track.position(joint: right, frame: hit.frame) else { continue }
      votes += length(r - ball) < length(l - ball) ? 1 : -1
    }
    if votes != 0 { return votes > 0 }
    func meanSpeed(_ joint: Int) -> Double {
      var sum = 0.0, n = 0
      var previous: SIMD3<Double>?
      for frame in track.frames {
        let p = track.position(joint: joint, frame: frame)
        if let p, let q = previous { sum += length(p - q); n += 1 }
        previous = p
      }
      return n > 0 ? sum / Double(n) : 0
    }
    return meanSpeed(right) >= meanSpeed(left)
  }
}
