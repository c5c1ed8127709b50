import MatchSceneCore

/// Finds each player's strokes around their hits and classifies them.
///
/// - Contact: the frame of the player's `hit` event (the ball's change of flight).
/// - Backswing start: where the racket hand is slowest (3-frame mean speed) in the `window` before the
///   contact (at least `minimumPhase` before it, and after the midpoint with the previous hit); the
///   follow-through end likewise after the contact. A stroke starts and ends with the racket hand nearly
///   at rest (the "preparation" and "recovery" of the phase models of e.g. Kibler, "Biomechanical
///   analysis of the shoulder during tennis activities", Clin. Sports Med. 14 (1995) 79–85).
/// - Kind: `serve` for the first hit of a rally (or a hit at a `rally_start` of the same player); else
///   `forehand` when the racket wrist at contact is on the racket side of its shoulder (lateral along
///   the hip line), `backhand` otherwise.
public struct StrokeSegmenter: Sendable {
  /// Largest backswing and follow-through, seconds.
  public var window: Double = 0.6
  /// Shortest backswing and follow-through, seconds.
  public var minimumPhase: Double = 0.08
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
    let speedIndex = FormMeasure.allCases.firstIndex(of: .racketHandSpeed)!
    let raw = Array(series.measures[(speedIndex * n)..<((speedIndex + 1) * n)])
    let speed = (0..<n).map { i -> Double in
      let window = raw[max(0, i - 1)...min(n - 1, i + 1)].filter(\.isFinite)
      return window.isEmpty ? .infinity : window.reduce(0, +) / Double(window.count)
    }
    func slowest(_ lower: Int, _ upper: Int) -> Int? {
      let lo = max(series.firstFrame, lower), hi = min(series.frames.upperBound, upper)
      guard lo <= hi else { return nil }
      return (lo...hi).min { speed[$0 - series.firstFrame] < speed[$1 - series.firstFrame] }
    }
    let windowFrames = Int((window * series.fps).rounded())
    let minimumFrames = max(1, Int((minimumPhase * series.fps).rounded()))
    var out: [FormStroke] = []
    for (i, hit) in hits.enumerated() {
      let c = hit.frame
      let previous = i > 0 ? (hits[i - 1].frame + c) / 2 : c - windowFrames
      let next = i + 1 < hits.count ? (hits[i + 1].frame + c) / 2 : c + windowFrames
      let start = slowest(max(previous, c - windowFrames), c - minimumFrames) ?? max(series.firstFrame, c - 1)
      let end = slowest(c + minimumFrames, min(next, c + windowFrames)) ?? min(series.frames.upperBound, c + 1)
      guard let body = series.body(frame: c) else { continue }
      let isServe = hit.rally.map { firstOfRally[$0] == c } ?? false || starts.contains { abs($0 - c) <= 2 }
      let kind: StrokeKind = isServe ? .serve : Self.side(body, racketSide: series.racketSide)
      var angles: [String: [String: Double]] = [:]
      for phase in StrokePhase.allCases {
        let f = phase == .backswingStart ? start : phase == .contact ? c : end
        var values: [String: Double] = [:]
        for a in FormAngle.allCases where series.angle(a, frame: f).isFinite { values[a.rawValue] = series.angle(a, frame: f) }
        angles[phase.rawValue] = values
      }
      let handSpeed = series.measure(.racketHandSpeed, frame: c)
      out.append(
        FormStroke(
          track: series.track, number: out.count + 1, kind: kind, hand: series.racketSide, backswingStartFrame: start,
          contactFrame: c, followThroughEndFrame: end, contactTime: hit.time,
          contactHeight: hit.position?.z ?? body.wrist(series.racketSide).z,
          handSpeedAtContact: handSpeed.isFinite ? handSpeed : nil, ballSpeedAfter: hit.speed, rally: hit.rally,
          ballSpin: hit.spin, angles: angles))
    }
    return out
  }

  /// Forehand when the racket wrist is on the racket side of the racket shoulder, along the hip line.
  static func side(_ b: BodyPoints, racketSide: BodySide) -> StrokeKind {
    let right = b.rightHip - b.leftHip
    let shoulder = racketSide == .right ? b.rightShoulder : b.leftShoulder
    let lateral = dot(b.wrist(racketSide) - shoulder, right) * (racketSide == .right ? 1 : -1)
    return lateral > 0 ? .forehand : .backhand
  }
}
