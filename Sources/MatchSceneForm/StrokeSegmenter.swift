import MatchSceneCore

/// Finds each player's strokes around their hits and classifies them.
///
/// - Landmarks (`StrokeLandmarks`): contact at the `hit` event's time; forward swing start, backswing
///   start and follow-through end from the racket hand's motion relative to the hip centre, within
///   `window` of the contact (and not past the midpoint with the player's previous or next hit), at
///   least `minimumPhase` apart. The phases are those of the stroke models of e.g. Kibler,
///   "Biomechanical analysis of the shoulder during tennis activities", Clin. Sports Med. 14 (1995)
///   79–85 (preparation, acceleration, follow-through).
/// - Kind: `serve` for the first hit of a rally (or a hit at a `rally_start` of the same player); else
///   `forehand` when the racket wrist at contact is on the racket side of its shoulder (lateral along
///   the hip line), `backhand` otherwise.
public struct StrokeSegmenter: Sendable {
  /// Largest backswing and follow-through, seconds.
  public var window: Double = 0.6
  /// Shortest forward swing and follow-through, seconds: the swing's arc ends are looked for at least this
  /// far from contact, so what the arm does around contact cannot move them.
  public var minimumPhase: Double = 0.1
  /// Shortest time between two strokes of one player, seconds.
  public var minimumInterval: Double = 0.25

  public init() {}

  /// Strokes of `series` around its player's hits in `events` (venue frame positions).
  public func strokes(_ series: AngleSeries, events: [MatchEvent]) -> [FormStroke] {
    var hits: [MatchEvent] = []
    for e in events.filter({ $0.type == .hit && $0.track == series.track && series.frames.contains($0.frame) })
      .sorted(by: { $0.frame < $1.frame })
    {
      // One player cannot strike twice within `minimumInterval`: a second hit that close is the same
      // stroke detected twice by the ball analysis.
      if let last = hits.last, Double(e.frame - last.frame) < minimumInterval * series.fps { continue }
      hits.append(e)
    }
    let starts = events.filter { $0.type == .rallyStart && $0.track == series.track }.map(\.frame)
    var firstOfRally: [Int: Int] = [:]
    for e in events where e.type == .hit {
      if let r = e.rally { firstOfRally[r] = min(firstOfRally[r] ?? .max, e.frame) }
    }
    let n = series.frameCount
    // The racket hand's speed relative to the hip centre, central differences, then a 3-frame mean.
    let hand = series.racketHandFromPelvis
    let raw = (0..<n).map { i -> Double in
      guard i > 0, i + 1 < n else { return .nan }
      return length(hand[i + 1] - hand[i - 1]) * series.fps / 2
    }
    let speed = (0..<n).map { i -> Double in
      let window = raw[max(0, i - 1)...min(n - 1, i + 1)].filter(\.isFinite)
      return window.isEmpty ? .nan : window.reduce(0, +) / Double(window.count)
    }
    let windowFrames = Int((window * series.fps).rounded())
    let minimumFrames = max(1, Int((minimumPhase * series.fps).rounded()))
    var out: [FormStroke] = []
    for (i, hit) in hits.enumerated() {
      let c = hit.frame
      let previous = i > 0 ? (hits[i - 1].frame + c) / 2 : c - windowFrames
      let next = i + 1 < hits.count ? (hits[i + 1].frame + c) / 2 : c + windowFrames
      guard let body = series.body(frame: c) else { continue }
      // The event's time within its frame (on a compact axis the time is the real one: frame only).
      let offset = hit.time * series.fps - Double(c)
      let contact = Double(c) + (abs(offset) <= 0.5 ? offset : 0)
      let landmarks = StrokeLandmarks.find(
        series, speed: speed, contact: contact, lower: max(previous, c - windowFrames),
        upper: min(next, c + windowFrames), minimumFrames: minimumFrames)
      let start = landmarks.map { Int($0.backswingStart.rounded()) } ?? max(series.firstFrame, c - 1)
      let forward = landmarks.map { Int($0.forwardSwingStart.rounded()) }
      let end = landmarks.map { Int($0.followThroughEnd.rounded()) } ?? min(series.frames.upperBound, c + 1)
      let isServe = hit.rally.map { firstOfRally[$0] == c } ?? false || starts.contains { abs($0 - c) <= 2 }
      let kind: StrokeKind = isServe ? .serve : Self.side(body, landmarks: landmarks, series: series)
      var angles: [String: [String: Double]] = [:]
      for phase in StrokePhase.allCases {
        let f: Int
        switch phase {
        case .backswingStart: f = start
        case .forwardSwingStart: guard let forward else { continue }; f = forward
        case .contact: f = c
        case .followThroughEnd: f = end
        }
        var values: [String: Double] = [:]
        for a in FormAngle.allCases where series.angle(a, frame: f).isFinite { values[a.rawValue] = series.angle(a, frame: f) }
        angles[phase.rawValue] = values
      }
      let handSpeed = series.measure(.racketHandSpeed, frame: c)
      out.append(
        FormStroke(
          track: series.track, number: out.count + 1, kind: kind, hand: series.racketSide, backswingStartFrame: start,
          forwardSwingStartFrame: forward, contactFrame: c, followThroughEndFrame: end, landmarks: landmarks,
          contactTime: hit.time, contactHeight: hit.position?.z ?? body.wrist(series.racketSide).z,
          handSpeedAtContact: handSpeed.isFinite ? handSpeed : nil, ballSpeedAfter: hit.speed, rally: hit.rally,
          ballSpin: hit.spin, angles: angles))
    }
    return out
  }

  /// Forehand when the swing runs from the racket side towards the free side (along the hip line at
  /// contact, from the forward swing start to the follow-through end: `StrokeLandmarks`), backhand when it
  /// runs the other way. Without landmarks: forehand when the racket wrist is on the racket side of the
  /// racket shoulder at contact. The swing's direction does not change when the arm meets the ball
  /// further forward or back, where the wrist's side at contact can.
  static func side(_ b: BodyPoints, landmarks: StrokeLandmarks?, series: AngleSeries) -> StrokeKind {
    let racketSide = series.racketSide
    let right = b.rightHip - b.leftHip
    let sign: Double = racketSide == .right ? 1 : -1
    if let l = landmarks {
      func hand(_ x: Double) -> SIMD3<Double> {
        let i = min(series.frameCount - 1, max(0, Int(x.rounded()) - series.firstFrame))
        return series.racketHandFromPelvis[i]
      }
      let sweep = dot(hand(l.followThroughEnd) - hand(l.forwardSwingStart), right) * sign
      if sweep.isFinite, sweep != 0 { return sweep < 0 ? .forehand : .backhand }
    }
    let shoulder = racketSide == .right ? b.rightShoulder : b.leftShoulder
    let lateral = dot(b.wrist(racketSide) - shoulder, right) * sign
    return lateral > 0 ? .forehand : .backhand
  }
}
