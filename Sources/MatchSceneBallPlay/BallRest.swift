import MatchSceneBallFlight
import MatchSceneCore

/// Settings of `BallRest`: when the ball counts as at rest.
public struct BallRestOptions: Sendable, Equatable {
  /// The ball is at rest while its positions stay within this distance of their median, metres; nil
  /// estimates it from the track: `noiseFactor` × its positional noise, at least `minimumRadius`.
  public var radius: Double?
  /// …for at least this long, seconds.
  public var hold: Double = 0.3
  /// The smallest estimated radius, metres.
  public var minimumRadius: Double = 0.01
  /// The estimated radius in units of the track's noise (per axis, σ).
  public var noiseFactor: Double = 5
  /// With a table known, a still ball over the table must lie within this height of resting on its
  /// top, metres: a path bent through the air over the table (a spinning ball's flight seen from few
  /// cameras) is not a rest. Elsewhere a ball held still (the server's palm before the toss) stays a
  /// rest, as the simulator's truth has it.
  public var surfaceTolerance: Double = 0.05
  public init(radius: Double? = nil, hold: Double = 0.3) {
    self.radius = radius
    self.hold = hold
  }

  /// Checks the settings. - Throws: `InputError` naming the setting.
  public func validate() throws {
    if let radius, !(radius.isFinite && radius > 0 && radius <= 1) {
      throw InputError(file: "ball-at-rest options", location: .key("radius"), "must lie in (0, 1] m, got \(radius)")
    }
    guard hold.isFinite, hold > 0, hold <= 60 else {
      throw InputError(file: "ball-at-rest options", location: .key("hold"), "must lie in (0, 60] s, got \(hold)")
    }
  }
}

/// The ball coming to rest, like a rolled die settling: its positions stay within a small radius of
/// their median for a hold time. For every sport; sports without a rule engine end their rallies here.
public enum BallRest {
  /// A still stretch of the ball: its first and last frame and where it lay (the median).
  public struct Stretch: Sendable, Equatable {
    public var first: Int
    public var last: Int
    public var position: SIMD3<Double>
    /// The radius the stretch was found with, metres.
    public var radius = 0.0
    public init(first: Int, last: Int, position: SIMD3<Double>) {
      self.first = first
      self.last = last
      self.position = position
    }
  }

  /// `stretch` with its place the median of its second half (after any creeping) and its start moved
  /// on to the first frame where the ball's position averaged over ±4 frames (noise down by 3) is
  /// within `max(minimum, 1.5 σ)` of that place, σ the noise of the second half (`noise`), at that
  /// frame and the next.
  static func settled(_ stretch: Stretch, ball: [Int: SIMD3<Double>], frames: [Int], fps: Double, minimum: Double) -> Stretch {
    let inside = frames.filter { $0 >= stretch.first && $0 <= stretch.last }
    guard inside.count >= 5 else { return stretch }
    var out = stretch
    let late = inside[(inside.count / 2)...]
    out.position = median(late.map { ball[$0]! })
    let sigma = noise(Dictionary(uniqueKeysWithValues: late.map { ($0, ball[$0]!) }), fps: fps, minimumTriples: 5, freeFall: false) ?? 0
    let threshold = max(minimum, 1.5 * sigma)
    func near(_ k: Int) -> Bool {
      let window = inside[max(0, k - 4)...min(inside.count - 1, k + 4)].map { ball[$0]! }
      return length(window.reduce(SIMD3<Double>.zero, +) / Double(window.count) - out.position) <= threshold
    }
    for k in 0..<(inside.count - 1) where near(k) && near(k + 1) {
      out.first = inside[k]
      break
    }
    return out
  }

  /// The positional noise of a ball track, metres per axis (σ): from the second differences of
  /// consecutive positions, which remove any smooth motion up to constant acceleration; for white
  /// noise of σ per axis a second difference has variance 6σ², and the median absolute value of a
  /// normal variable is 0.6745 of its σ (a robust scale, Hampel 1974). The gravity term g/fps² (2.7 mm
  /// at 60 fps) is subtracted from z unless `freeFall` is false (a window of a ball that may lie
  /// still). Nil with fewer than `minimumTriples` triples of consecutive frames.
  public static func noise(
    _ ball: [Int: SIMD3<Double>], fps: Double, minimumTriples: Int = 10, freeFall: Bool = true
  ) -> Double? {
    var values: [Double] = []
    let g = freeFall ? 9.81 / (fps * fps) : 0
    for (f, p) in ball {
      guard let a = ball[f - 1], let b = ball[f + 1] else { continue }
      var d = a - 2 * p + b
      d.z += g
      values += [abs(d.x), abs(d.y), abs(d.z)]
    }
    guard values.count >= 3 * minimumTriples else { return nil }
    values.sort()
    return values[values.count / 2] / 0.6745 / 6.0.squareRoot()
  }

  /// The radius `options` give for `ball`: theirs, or estimated from the track's noise.
  public static func radius(_ ball: [Int: SIMD3<Double>], fps: Double, options: BallRestOptions) -> Double {
    if let r = options.radius { return r }
    return max(options.minimumRadius, options.noiseFactor * (noise(ball, fps: fps) ?? 0))
  }

  /// The still stretches of `ball`: from a frame where the observations of the next `hold` seconds
  /// (covering at least two thirds of them) all lie within `radius` of their median, on while the
  /// ball stays within twice that of it (observations missing for up to `hold` do not end it).
  /// With `settle`, the start moves on to where the ball settled (`settled`, at least `settle` from
  /// its place: a ball rolling to a stop enters the radius before it stops), stretches follow a ball
  /// still creeping, and stretches one after the other in nearly the same place are one.
  ///
  /// With `noiseFactor`, a window's radius grows to `noiseFactor` × its own noise (`noise` of the
  /// window's observations) where that is larger: a ball lying where fewer cameras see it well (the
  /// floor far from the rig) is noisier than the track on average.
  public static func stretches(
    _ ball: [Int: SIMD3<Double>], fps: Double, radius baseRadius: Double, hold: Double, settle baseSettle: Double? = nil,
    noiseFactor: Double? = nil
  ) -> [Stretch] {
    let frames = ball.keys.sorted()
    let holdFrames = max(2, Int((hold * fps).rounded()))
    var out: [Stretch] = []
    var i = 0
    while i < frames.count {
      let f = frames[i]
      var window: [SIMD3<Double>] = []
      var j = i
      while j < frames.count, frames[j] - f < holdFrames {
        window.append(ball[frames[j]]!)
        j += 1
      }
      var radius = baseRadius
      if let noiseFactor, window.count >= holdFrames * 2 / 3 {
        let local = Dictionary(uniqueKeysWithValues: frames[i..<j].map { ($0, ball[$0]!) })
        if let sigma = noise(local, fps: fps, minimumTriples: 5, freeFall: false) { radius = max(radius, noiseFactor * sigma) }
      }
      let settle = baseSettle
      if window.count >= holdFrames * 2 / 3 {
        func median(_ axis: Int) -> Double { window.map { $0[axis] }.sorted()[window.count / 2] }
        let median = SIMD3(median(0), median(1), median(2))
        if window.allSatisfy({ length($0 - median) <= radius }) {
          var k = j
          var anchor = median
          while k < frames.count, frames[k] - frames[k - 1] <= holdFrames, length(ball[frames[k]]! - anchor) <= 2 * radius {
            k += 1
            // With `settle`, follow a ball still creeping: the anchor is the median of the last hold.
            if settle != nil, (k - i) % holdFrames == 0 { anchor = Self.median(frames[(k - holdFrames)..<k].map { ball[$0]! }) }
          }
          var stretch = Stretch(first: f, last: frames[k - 1], position: median)
          stretch.radius = radius
          if let settle { stretch = settled(stretch, ball: ball, frames: frames, fps: fps, minimum: settle) }
          // A ball that settles in steps (a last small hop, a creep) makes stretches one after the
          // other in nearly the same place: one rest.
          if settle != nil, let previous = out.last, stretch.first - previous.last <= holdFrames,
            length(stretch.position - previous.position) <= 2 * max(radius, previous.radius)
          {
            var merged = previous
            merged.last = stretch.last
            merged.radius = max(radius, previous.radius)
            out[out.count - 1] = settled(merged, ball: ball, frames: frames, fps: fps, minimum: baseSettle!)
            i = k
            continue
          }
          out.append(stretch)
          i = k
          continue
        }
      }
      i += 1
    }
    return out
  }

  /// The per-axis median of `points` (not empty).
  static func median(_ points: [SIMD3<Double>]) -> SIMD3<Double> {
    func axis(_ a: Int) -> Double { points.map { $0[a] }.sorted()[points.count / 2] }
    return SIMD3(axis(0), axis(1), axis(2))
  }

  /// `ball_at_rest` events: one per still stretch, at its first frame, `duration` its length, `position`
  /// where the ball lay.
  /// With `surfaces` (a table), a stretch over the table more than `surfaceTolerance` above a ball
  /// resting on its top is no rest.
  public static func events(
    _ ball: [Int: SIMD3<Double>], fps: Double, options: BallRestOptions = .init(), surfaces: BallSurfaces? = nil
  ) -> [MatchEvent] {
    let r = radius(ball, fps: fps, options: options)
    let settle = min(r, options.minimumRadius)
    let all = stretches(ball, fps: fps, radius: r, hold: options.hold, settle: settle, noiseFactor: options.noiseFactor)
    let grounded = all.filter { s in
      guard let surfaces, let table = surfaces.table, surfaces.isOverTable(s.position) else { return true }
      return s.position.z - (table.surfaceHeight + surfaces.ballRadius) <= options.surfaceTolerance
    }
    return grounded.map { s in
      var e = MatchEvent(type: .ballAtRest, frame: s.first, time: Double(s.first) / fps, position: s.position)
      e.duration = Double(s.last - s.first + 1) / fps
      return e
    }
  }

  /// Rallies for a sport without a rule engine: the ball is in play from when it starts moving (the
  /// end of a still stretch, or its first sighting after being lost for `lostDuration`) until it comes
  /// to rest or is lost. Returns `rally_start` / `rally_end` events numbered from 1; a stretch of play
  /// shorter than `hold` is not a rally.
  public static func rallies(
    _ ball: [Int: SIMD3<Double>], rests: [MatchEvent], fps: Double, lostDuration: Double, hold: Double
  ) -> [MatchEvent] {
    let frames = ball.keys.sorted()
    guard !frames.isEmpty else { return [] }
    let lostFrames = max(1, Int((lostDuration * fps).rounded()))
    var restAt: [Int: Int] = [:]  // first frame → last frame of each rest
    for r in rests { restAt[r.frame] = r.frame + Int(((r.duration ?? 0) * fps).rounded()) - 1 }
    var out: [MatchEvent] = []
    var start: Int?
    var rally = 0
    func position(_ f: Int) -> SIMD3<Double>? { ball[f] }
    func close(_ end: Int) {
      guard let s = start else { return }
      start = nil
      guard Double(end - s) / fps >= hold else { return }
      rally += 1
      out.append(MatchEvent(type: .rallyStart, frame: s, time: Double(s) / fps, position: position(s), rally: rally))
      out.append(MatchEvent(type: .rallyEnd, frame: end, time: Double(end) / fps, position: position(end), rally: rally))
    }
    var i = 0
    while i < frames.count {
      let f = frames[i]
      if let restEnd = restAt[f] {
        close(f)
        // Play resumes after the rest.
        while i < frames.count, frames[i] <= restEnd { i += 1 }
        if i < frames.count, frames[i] - restEnd <= lostFrames { start = frames[i] }
        continue
      }
      if start == nil, i == 0 || f - frames[i - 1] > lostFrames { start = f }
      if i + 1 < frames.count, frames[i + 1] - f > lostFrames { close(f) }
      i += 1
    }
    close(frames.last!)
    return out
  }
}
