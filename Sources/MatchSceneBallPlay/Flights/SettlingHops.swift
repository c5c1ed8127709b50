import Foundation
import MatchSceneBallFlight
import MatchSceneCore

/// Settings of `SettlingHops`.
public struct SettlingHopsOptions: Sendable {
  /// Observations at most this high above the surface under them (the ball's centre above its resting
  /// height, metres) form the low stretches the hop model explains; higher hops are left to the flights.
  public var maxLift: Double = 0.06
  /// Missed frames a stretch may span (a hop goes on while no camera sees the ball).
  public var maxGapFrames = 6
  /// A stretch needs at least this many observations.
  public var minObservations = 6
  /// The longest still or unmodelled (held, carried) segment considered at once, frames (longer ones are
  /// chains of them, each breakpoint paying its penalty).
  public var maxSegmentFrames = 120
  /// The rise after the last contact measures the hop when it has at least this many observations
  /// (gravity known, one speed to fit).
  public var minRiseObservations = 2
  /// Candidate offsets of the surface as seen from its nominal height, metres (the best is kept).
  public var surfaceOffsets: [Double] = Array(stride(from: -0.015, through: 0.0151, by: 0.0025))
  /// The smallest positional noise assumed, metres (σ per axis): a floor for the estimate from the data.
  public var minimumNoise: Double = 0.001
  public init() {}
}

/// A ball low over a surface — settling after a point in hops of a few centimetres, rolling, lying
/// still — explained as a chain of ballistic hops between contacts with the surface.
///
/// A hop between contacts at times c < c′ on a surface at resting height r (the ball's centre on it)
/// is fixed by those two times alone: under gravity g its centre is at r + (g/2)(t − c)(c′ − t), and
/// its height is g (c′ − c)² / 8. So the heights of a settling ball are a piecewise function of its
/// contact times, which are found by optimal partitioning over a half-frame grid (Jackson et al., "An
/// algorithm for optimal partitioning of data on an interval", IEEE Signal Processing Letters 12(2),
/// 2005) with a BIC penalty per parameter (Schwarz, "Estimating the dimension of a model", Ann. Stat.
/// 6(2), 1978; σ² ln n for each contact time or free coefficient, σ from the data). Segments: a hop
/// (no free parameter beyond its ends), the ball lying or rolling on the surface (height r), an
/// unmodelled stretch (a ball held or carried: a straight line in time, two parameters), the descent
/// into the first contact and the rise after the last (one speed each). A ball that has come to lie on
/// the surface does not hop again unless something moves it: no hop follows a still segment directly.
///
/// A contact is a bounce when the ball came down into it (a hop or the descent) and the hop after it
/// rises at least `minimumHop` — the height test the flights' contacts pass, made here with the
/// hop's shape known. A flight's bounce where the chain puts a contact with a smaller hop after it, or
/// the ball lying still, is a phantom of the noise.
public struct SettlingHops: Sendable {
  /// A contact of the chain with the surface.
  public struct Contact: Sendable, Equatable {
    public var time: Double
    public var position: SIMD3<Double>
    public var surface: BounceSurface
    /// Whether the ball came down into it (it did not lie on the surface before).
    public var descended: Bool
    /// The height of the hop after it, metres: 0 when the ball lay or rolled after it; nil when it was
    /// carried (an unmodelled segment) or the rise after it is seen too briefly to measure.
    public var hopAfter: Double?
  }

  /// The result for one low stretch: its frames, its contacts and where the ball lay still.
  public struct Stretch: Sendable {
    public var frames: ClosedRange<Int>
    public var contacts: [Contact]
    /// Time ranges (seconds) of still or rolling segments.
    public var still: [ClosedRange<Double>]
    /// The heights' noise the chain was found with (σ, metres).
    public var noise: Double
    /// How far above its nominal height the surface was seen, metres.
    public var offset: Double
  }

  public var surfaces: BallSurfaces
  public var gravity: Double
  public var options: SettlingHopsOptions
  public init(surfaces: BallSurfaces, gravity: Double = 9.81, options: SettlingHopsOptions = .init()) {
    self.surfaces = surfaces
    self.gravity = gravity
    self.options = options
  }

  /// The low stretches of `ball` (observed centre by frame, venue frame) explained as hop chains.
  public func stretches(_ ball: [Int: SIMD3<Double>], fps: Double) -> [Stretch] {
    var out: [Stretch] = []
    var run: [Int] = []
    var runRest = 0.0
    func flush() {
      if run.count >= options.minObservations {
        // The surface as the cameras see it may lie a few millimetres off its nominal height (a
        // calibration's bias): the chain is found for each candidate offset, and the cheapest kept.
        let chains = options.surfaceOffsets.map { explain(run, ball: ball, rest: runRest, offset: $0, fps: fps) }
        if var best = chains.min(by: { $0.cost < $1.cost }) {
          // The third differences the first chain was found with also see each contact's kink, so on
          // a short stretch of several hops they overstate the noise (and the penalty hides the last
          // hops). The noise is estimated again from the residuals of that chain, the model the data
          // follow (`residualNoise`), and the chain found again with it when it is smaller.
          if let refined = Self.residualNoise(best.residuals, parameters: best.parameters),
            refined < best.stretch.noise
          {
            let sigma = max(options.minimumNoise, refined)
            let again = options.surfaceOffsets.map { explain(run, ball: ball, rest: runRest, offset: $0, fps: fps, noise: sigma) }
            if let second = again.min(by: { $0.cost < $1.cost }) { best = second }
          }
          out.append(best.stretch)
        }
      }
      run = []
    }
    for f in ball.keys.sorted() {
      let p = ball[f]!
      let rest = surfaces.restingHeight(under: p)
      guard p.z - rest <= options.maxLift else {
        flush()
        continue
      }
      if let last = run.last, f - last > options.maxGapFrames + 1 || rest != runRest { flush() }
      if run.isEmpty { runRest = rest }
      run.append(f)
    }
    flush()
    return out
  }

  private enum Segment { case hop, still, free, descent, rise }

  /// The least-cost chain for one stretch (frames in order, all over one surface at resting height `rest`).
  /// - Returns: the chain and its cost (squared residuals plus penalties, m²).
  /// - Parameter noise: σ of the heights; nil: estimated from their third differences (`noise(_:_:)`).
  /// - Returns: the chain, its cost, the residual of each observation under it and the number of
  ///   parameters it fitted (contact times, speeds, line coefficients).
  func explain(
    _ frames: [Int], ball: [Int: SIMD3<Double>], rest: Double, offset: Double, fps: Double, noise: Double? = nil
  ) -> (stretch: Stretch, cost: Double, residuals: [Double], parameters: Int) {
    let t = frames.map { Double($0) }  // frames as time unit
    let y = frames.map { ball[$0]!.z - rest - offset }
    let n = t.count
    let g = gravity / (fps * fps)  // metres per frame²
    let sigma = noise ?? max(options.minimumNoise, Self.noise(frames, y) ?? options.minimumNoise)
    let penalty = sigma * sigma * log(Double(n))
    // Nodes on a half-frame grid, between observations.
    let start = t[0] - 0.25, end = t[n - 1] + 0.25
    let nodeCount = Int(((end - start) / 0.5).rounded()) + 1
    func tau(_ k: Int) -> Double { start + 0.5 * Double(k) }
    // first[k]: index of the first observation at or after node k.
    var first = [Int](repeating: n, count: nodeCount)
    var i = 0
    for k in 0..<nodeCount {
      while i < n, t[i] < tau(k) { i += 1 }
      first[k] = i
    }
    // Prefix sums for still and free segments.
    var s1 = [0.0], st = [0.0], stt = [0.0], sy = [0.0], sty = [0.0], syy = [0.0]
    for j in 0..<n {
      s1.append(s1[j] + 1); st.append(st[j] + t[j]); stt.append(stt[j] + t[j] * t[j])
      sy.append(sy[j] + y[j]); sty.append(sty[j] + t[j] * y[j]); syy.append(syy[j] + y[j] * y[j])
    }
    func stillCost(_ a: Int, _ b: Int) -> Double { syy[b] - syy[a] }
    func freeCost(_ a: Int, _ b: Int) -> Double {
      let m = s1[b] - s1[a]
      guard m >= 2 else { return 0 }
      let mt = (st[b] - st[a]) / m, my = (sy[b] - sy[a]) / m
      let vtt = stt[b] - stt[a] - m * mt * mt, vty = sty[b] - sty[a] - m * mt * my, vyy = syy[b] - syy[a] - m * my * my
      return max(0, vtt > 1e-12 ? vyy - vty * vty / vtt : vyy)
    }
    func hopCost(_ a: Int, _ b: Int, _ c0: Double, _ c1: Double) -> Double {
      var cost = 0.0
      for j in a..<b {
        let r = y[j] - 0.5 * g * (t[j] - c0) * (c1 - t[j])
        cost += r * r
      }
      return cost
    }
    /// Descent into (rise out of) a contact at `c`: y = v |u| − (g/2) u², u = t − c, v ≥ 0 fitted.
    func sloped(_ a: Int, _ b: Int, _ c: Double) -> (cost: Double, speed: Double) {
      var swu = 0.0, suu = 0.0, sww = 0.0
      for j in a..<b {
        let u = abs(t[j] - c), w = y[j] + 0.5 * g * u * u
        swu += w * u; suu += u * u; sww += w * w
      }
      guard suu > 0 else { return (sww, 0) }
      let v = max(0, swu / suu)
      return (sww - 2 * v * swu + v * v * suu, v)
    }
    let maxHopSteps = Int((2 * (2 * options.maxLift / g).squareRoot() / 0.5).rounded(.up))
    let maxSteps = 2 * options.maxSegmentFrames
    // State at a node: the segment that ended there left the ball free to hop on (0: a hop, the
    // descent, an unmodelled segment, the start) or lying on the surface (1: a ball that has come to
    // lie or roll does not hop again by itself; it must be picked up or struck first — an unmodelled
    // segment).
    var best = [[Double]](repeating: [.infinity, .infinity], count: nodeCount)
    var back = [[(from: Int, state: Int, kind: Segment, speed: Double)]](
      repeating: [(0, 0, .still, 0), (0, 0, .still, 0)], count: nodeCount)
    best[0][0] = 0
    let last = nodeCount - 1
    for k in 1..<nodeCount {
      let bk = first[k]
      func consider(_ cost: Double, _ from: Int, _ state: Int, _ kind: Segment, _ speed: Double = 0) {
        let to = kind == .still ? 1 : 0
        if cost < best[k][to] {
          best[k][to] = cost
          back[k][to] = (from, state, kind, speed)
        }
      }
      for j in stride(from: k - 1, through: max(0, k - maxSteps), by: -1) {
        let a = first[j]
        let breakpoint = j > 0 ? penalty : 0
        for state in 0..<2 where best[j][state].isFinite {
          let before = best[j][state] + breakpoint
          consider(before + stillCost(a, bk), j, state, .still)
          consider(before + 2 * penalty + freeCost(a, bk), j, state, .free)
          guard state == 0 else { continue }
          if k - j <= maxHopSteps, j > 0, k < last {
            consider(before + hopCost(a, bk, tau(j), tau(k)), j, state, .hop)
          }
          if j == 0, k < last {
            let d = sloped(a, bk, tau(k))
            consider(before + penalty + d.cost, j, state, .descent, d.speed)
          }
          if k == last, j > 0 {
            let r = sloped(a, bk, tau(j))
            consider(before + penalty + r.cost, j, state, .rise, r.speed)
          }
        }
      }
    }
    // Walk back: segments in order.
    var segments: [(from: Int, to: Int, kind: Segment, speed: Double)] = []
    var k = last
    var state = best[last][0] <= best[last][1] ? 0 : 1
    while k > 0 {
      let b = back[k][state]
      segments.append((b.from, k, b.kind, b.speed))
      k = b.from
      state = b.state
    }
    segments.reverse()
    let surface: BounceSurface = rest > surfaces.ballRadius + 1e-9 ? .table : .floor
    var contacts: [Contact] = []
    var still: [ClosedRange<Double>] = []
    for (index, s) in segments.enumerated() {
      if s.kind == .still { still.append(tau(s.from) / fps...tau(s.to) / fps) }
      guard index + 1 < segments.count else { continue }
      let next = segments[index + 1]
      guard s.kind == .hop || s.kind == .descent || next.kind == .hop || next.kind == .rise else { continue }
      let c = tau(s.to)
      var hopAfter: Double? = next.kind == .still ? 0 : nil
      if next.kind == .hop {
        let d = tau(next.to) - c
        hopAfter = g * d * d / 8
      } else if next.kind == .rise {
        hopAfter = first[next.to] - first[next.from] >= options.minRiseObservations ? next.speed * next.speed / (2 * g) : nil
      }
      contacts.append(
        Contact(time: c / fps, position: position(at: c, frames: frames, ball: ball, rest: rest), surface: surface,
                descended: s.kind != .still, hopAfter: hopAfter))
    }
    // Residuals under the chain, and its parameter count (a breakpoint inside, plus each segment's own).
    var residuals = [Double](repeating: 0, count: n)
    var parameters = 0
    for s in segments {
      let a = first[s.from], b = first[s.to]
      if s.from > 0 { parameters += 1 }
      switch s.kind {
      case .still:
        for j in a..<b { residuals[j] = y[j] }
      case .hop:
        for j in a..<b { residuals[j] = y[j] - 0.5 * g * (t[j] - tau(s.from)) * (tau(s.to) - t[j]) }
      case .descent, .rise:
        parameters += 1
        let c = s.kind == .descent ? tau(s.to) : tau(s.from)
        for j in a..<b {
          let u = abs(t[j] - c)
          residuals[j] = y[j] - (s.speed * u - 0.5 * g * u * u)
        }
      case .free:
        parameters += 2
        let m = Double(b - a)
        guard m >= 2 else { continue }
        let mt = (st[b] - st[a]) / m, my = (sy[b] - sy[a]) / m
        let vtt = stt[b] - stt[a] - m * mt * mt, vty = sty[b] - sty[a] - m * mt * my
        let slope = vtt > 1e-12 ? vty / vtt : 0
        for j in a..<b { residuals[j] = y[j] - my - slope * (t[j] - mt) }
      }
    }
    let stretch = Stretch(frames: frames[0]...frames[n - 1], contacts: contacts, still: still, noise: sigma, offset: offset)
    return (stretch, min(best[last][0], best[last][1]), residuals, parameters)
  }

  /// Where the ball touched at time `c` (frames): the horizontal position interpolated between the
  /// observations around it, at the resting height.
  func position(at c: Double, frames: [Int], ball: [Int: SIMD3<Double>], rest: Double) -> SIMD3<Double> {
    let after = frames.firstIndex { Double($0) >= c } ?? frames.count - 1
    let before = max(0, after - 1)
    let p0 = ball[frames[before]]!, p1 = ball[frames[after]]!
    let span = Double(frames[after] - frames[before])
    let w = span > 0 ? min(1, max(0, (c - Double(frames[before])) / span)) : 0
    var p = p0 + w * (p1 - p0)
    p.z = rest
    return p
  }

  /// The noise of heights whose model left `residuals` after fitting `parameters`, σ: the root of the
  /// residual sum of squares over its n − p degrees of freedom (the unbiased estimate of a linear
  /// model's variance; heavy-tailed errors — one-view frames — count in full). Nil when fewer than
  /// five degrees of freedom remain.
  static func residualNoise(_ residuals: [Double], parameters: Int) -> Double? {
    let n = residuals.count
    guard n - parameters >= 5 else { return nil }
    return (residuals.reduce(0) { $0 + $1 * $1 } / Double(n - parameters)).squareRoot()
  }

  /// The noise of the heights `y` at `frames`, σ: from third differences of four consecutive frames,
  /// which remove motion up to constant acceleration whether the ball flies or lies (variance 20σ² for
  /// white noise; median absolute value 0.6745 σ of a normal variable, Hampel 1974). Nil with fewer
  /// than five such quadruples.
  static func noise(_ frames: [Int], _ y: [Double]) -> Double? {
    var values: [Double] = []
    for i in 0..<max(0, frames.count - 3) where frames[i + 3] - frames[i] == 3 {
      values.append(abs(y[i + 3] - 3 * y[i + 2] + 3 * y[i + 1] - y[i]))
    }
    guard values.count >= 5 else { return nil }
    values.sort()
    return values[values.count / 2] / (0.6745 * 20.0.squareRoot())
  }
}
