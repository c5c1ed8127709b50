import MatchSceneBallFlight
import MatchSceneCore

/// Settings of `EventDetector`.
public struct EventDetectionOptions: Sendable {
  /// A contact this close to a surface (centre height minus radius), metres, is a bounce on it.
  public var surfaceTolerance: Double = 0.06
  /// Slack around the table outline for table bounces, metres.
  public var edgeTolerance: Double = 0.05
  /// Net contacts: within this of the net plane (x = 0), metres.
  public var netTolerance: Double = 0.08
  /// The ball is at rest when its positions stay within `restNoise` of their median for `restDuration` seconds.
  public var restDuration: Double = 0.3
  /// Positional noise allowed while at rest, metres (triangulation noise of a still ball).
  public var restNoise: Double = 0.01
  /// A rally also ends when the ball has not been seen for this long, seconds.
  public var lostDuration: Double = 1.0
  /// A bounce counts when the ball hops at least this high again, metres (smaller hops are the ball
  /// settling into a roll).
  public var minimumHop: Double = 0.01
  /// A flight on either side of a contact must carry the ball at least this far, metres (a ball lying
  /// still, seen with noise, is not flying), or lift it off the surface under it (a settling hop).
  public var minimumTravel: Double = 0.05
  /// A hit needs a wrist within this distance of the contact, metres (the racket's reach).
  public var maxHitDistance: Double = 0.6
  /// A contact that leaves the ball slower than this horizontally, rising, is a toss from the palm
  /// (before a serve, or a player bouncing the ball), not a hit, m/s.
  public var tossMaxHorizontalSpeed: Double = 1.5
  /// A rally decided by a bounce (floor, or a bounce no good rally allows) goes on when a stroke
  /// follows within this many seconds: a hit was missed. A real end is followed by a pick-up and a
  /// new serve, which take longer.
  public var decisionConfirmation: Double = 1.0
  /// Bounces of a ball low over a surface checked against, and completed from, the chain of hops
  /// that explains its heights (`SettlingHops`); nil: the flights' contacts alone.
  public var settlingHops: SettlingHopsOptions? = SettlingHopsOptions()
  /// A ball lost right after coming down onto a surface bounced there when the surface's restitution,
  /// measured on the match's own bounces, makes it rebound at least `minimumHop`
  /// (`EventDetector.lostAfterContact`); false: such a contact is not an event.
  public var bouncesOfLostBalls = true
  public init() {}
}

/// Finds the match's events — bounces, hits, net, rally start and end — from the ball's flights and
/// the players' wrists.
///
/// Consecutive flights meet at a contact: the time where their fitted paths come closest. A contact
/// near the table top (inside its outline) or the floor with the vertical velocity turning from down
/// to up is a bounce; near the net plane below the net's top, a net contact; otherwise a hit, given
/// to the player whose wrist is nearest. A rally starts at the first hit after the ball was out of
/// play (the serve) and ends when it is decided: the ball touches the floor or bounces where no good
/// rally allows (ITTF Handbook 2.10.1), comes to rest (its positions stay within a small ball for a while, like a rolled die
/// settling) or is lost.
public struct EventDetector: Sendable {
  /// Largest height of a stroke's contact above the table's bounce height (the ball's centre at
  /// contact, metres) that still counts as the ball on the table when the incoming path misses it.
  static let contactOnTable = 0.02

  public var table: TableGeometry
  public var options: EventDetectionOptions
  public init(table: TableGeometry, options: EventDetectionOptions = .init()) {
    self.table = table
    self.options = options
  }

  /// - Parameters:
  ///   - flights: time-ordered fitted flights.
  ///   - ball: the observed ball positions by frame (for rest and loss detection).
  ///   - wrists: per player track, per frame, its wrist positions.
  public func detect(
    flights: [BallFlight], ball: [Int: SIMD3<Double>], wrists: [String: [Int: [SIMD3<Double>]]], fps: Double
  ) -> [MatchEvent] {
    var events: [MatchEvent] = []
    var rebounds: [BounceSurface: [Double]] = [:]  // per surface: rebound over incoming vertical speed
    let surfaces = BallSurfaces(ballRadius: table.ballRadius, table: table)
    /// How far the observed ball travelled during a flight: a still ball's noise fits "flights" too.
    func travel(_ flight: BallFlight) -> Double {
      let points = flight.frames.compactMap { ball[$0] }
      guard let first = points.first else { return 0 }
      return points.map { length($0 - first) }.max() ?? 0
    }
    /// Whether a flight is one: it carried the ball `minimumTravel`, or the ball left the surface under
    /// it — a settling hop of 1–2 cm travels less than that, and a still or rolling ball seen with
    /// noise does not leave the surface. A hop of height h keeps the ball 2h/3 above its resting height
    /// on average; the observations must average at least half of `minimumHop` above it.
    func flies(_ flight: BallFlight) -> Bool {
      if travel(flight) >= options.minimumTravel { return true }
      let lifts = flight.frames.compactMap { f in ball[f].map { $0.z - surfaces.restingHeight(under: $0) } }
      guard !lifts.isEmpty else { return false }
      return lifts.reduce(0, +) / Double(lifts.count) >= options.minimumHop / 2
    }
    // The consecutive pairs that may meet at a contact, and their meeting points, found in parallel
    // before the (order-dependent) loop below; each exactly as computed alone.
    let meets = zip(flights, flights.dropFirst()).map { a, b in
      b.frames.lowerBound - a.frames.upperBound <= Int(0.3 * fps) + 1 && flies(a) && flies(b)
    }
    let meeting = try! parallelMap(meets.indices.filter { meets[$0] }) { i in (i, meetingPoint(flights[i], flights[i + 1], fps: fps)) }
    let meetingPoints = Dictionary(uniqueKeysWithValues: meeting)
    for (i, (a, b)) in zip(flights, flights.dropFirst()).enumerated() {
      guard let (t, position) = meetingPoints[i] else { continue }
      let frame = Int((t * fps).rounded())
      let vBefore = a.velocity(at: t), vAfter = b.velocity(at: t)
      let speed = length(vAfter)
      let height = position.z - table.ballRadius
      let hops = vAfter.z >= (2 * 9.81 * options.minimumHop).squareRoot()
      let onTable = abs(position.x) <= table.length / 2 + options.edgeTolerance
        && abs(position.y) <= table.width / 2 + options.edgeTolerance
      let nearTable = onTable && abs(height - table.surfaceHeight) <= options.surfaceTolerance
      if nearTable || abs(height) <= options.surfaceTolerance, vBefore.z < 0, !hops {
        continue  // the ball settling: not an event
      }
      /// The player whose racket is in reach of the contact, if any.
      func hitter() -> String? {
        guard let (track, distance) = nearestPlayer(to: position, frame: frame, wrists: wrists), distance <= options.maxHitDistance
        else { return nil }
        return track
      }
      if nearTable, vBefore.z < 0, vAfter.z > 0 {
        let (tb, pb) = planeCrossing(b, height: table.surfaceHeight + table.ballRadius, near: t, fps: fps) ?? (t, position)
        let touch = netTouch(before: a, bounceTime: tb, bouncePosition: pb, surfaces: surfaces, fps: fps)
        // A bounce keeps the ball's horizontal direction (friction only slows it); a contact just above
        // the table that sends the ball back, with a racket in reach, is a low stroke.
        let sentBack = vBefore.x * vAfter.x + vBefore.y * vAfter.y < 0
        if touch == nil, sentBack, let track = hitter() {
          // A half-volley: the incoming path reached the table just before the stroke.
          // When the incoming path, poorly fitted at its end, does not reach the table, a contact
          // on the table top itself (within `contactOnTable` of the bounce height) is the bounce: the
          // stroke followed within a frame or two. A contact higher up is a low stroke alone.
          let bounceHeight = table.surfaceHeight + table.ballRadius
          let reached = descent(of: a, to: bounceHeight, before: t + 1 / fps, fps: fps)
          let contactIsOnTable = onTableTop(position) && abs(position.z - bounceHeight) <= Self.contactOnTable
          if let (tc, pc) = reached ?? (contactIsOnTable ? (t, position) : nil), onTableTop(pc) {
            events.append(
              MatchEvent(type: .bounce, frame: Int((tc * fps).rounded()), time: tc, position: pc, speed: length(a.velocity(at: tc)),
                         surface: .table, side: TableSide(x: pc.x)))
          }
          events.append(MatchEvent(type: .hit, frame: frame, time: t, track: track, position: position, speed: speed))
          continue
        }
        if let (tn, pn) = touch {
          events.append(MatchEvent(type: .net, frame: Int((tn * fps).rounded()), time: tn, position: pn, speed: length(a.velocity(at: tn))))
        } else {
          rebounds[.table, default: []].append(vAfter.z / -vBefore.z)
        }
        events.append(
          MatchEvent(type: .bounce, frame: Int((tb * fps).rounded()), time: tb, position: pb, speed: length(b.velocity(at: tb)),
                     surface: .table, side: TableSide(x: pb.x)))
      } else if abs(height) <= options.surfaceTolerance, vBefore.z < 0, vAfter.z >= 0 {
        let (tb, pb) = planeCrossing(b, height: table.ballRadius, near: t, fps: fps) ?? (t, position)
        rebounds[.floor, default: []].append(vAfter.z / -vBefore.z)
        events.append(
          MatchEvent(type: .bounce, frame: Int((tb * fps).rounded()), time: tb, position: pb, speed: length(b.velocity(at: tb)),
                     surface: .floor))
      } else if abs(position.x) <= options.netTolerance, position.z <= table.surfaceHeight + table.netHeight + table.ballRadius,
        position.z >= table.surfaceHeight - options.surfaceTolerance, abs(position.y) <= table.width / 2 + 0.2
      {
        events.append(MatchEvent(type: .net, frame: frame, time: t, position: position, speed: speed))
      } else {
        let horizontal = SIMD2(vAfter.x, vAfter.y)
        let isToss = (horizontal * horizontal).sum().squareRoot() < options.tossMaxHorizontalSpeed && vAfter.z > 0
        guard !isToss, let hitter = hitter() else {
          // No racket near: a low contact off the table is the floor when the flight after it, followed
          // back, comes down to the floor there (else the two flights are pieces of one, split by a bad
          // observation); anything else is not an event.
          if height < 0.2, hops, !onTable, let (tb, pb) = planeCrossing(b, height: table.ballRadius, near: t, fps: fps) {
            events.append(
              MatchEvent(type: .bounce, frame: Int((tb * fps).rounded()), time: tb, position: pb, speed: length(b.velocity(at: tb)),
                         surface: .floor))
          }
          continue
        }
        // A bounce 1–3 frames before the stroke leaves no flight of its own between them: the incoming
        // path, followed to the stroke, comes down onto the table top just before it.
        if vBefore.z < 0, let (tc, pc) = descent(of: a, to: table.surfaceHeight + table.ballRadius, before: t + 1 / fps, fps: fps),
          onTableTop(pc)
        {
          events.append(
            MatchEvent(type: .bounce, frame: Int((tc * fps).rounded()), time: tc, position: pc, speed: length(a.velocity(at: tc)),
                       surface: .table, side: TableSide(x: pc.x)))
        }
        events.append(MatchEvent(type: .hit, frame: frame, time: t, track: hitter, position: position, speed: speed))
      }
    }
    if options.bouncesOfLostBalls {
      let lost = lostAfterContact(
        flights: flights, flies: flies, ball: ball, restitution: Self.restitution(rebounds), fps: fps)
      if !lost.isEmpty {
        events = (events + lost).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
      }
    }
    if let hops = options.settlingHops {
      let stretches = SettlingHops(surfaces: surfaces, options: hops).stretches(ball, fps: fps)
      events = checkedAgainstHops(events, stretches: stretches, ball: ball, fps: fps)
    }
    return addRallies(Self.oneBouncePerHop(events, minimumHop: options.minimumHop), ball: ball, fps: fps)
  }

  /// Drops a bounce that follows another on the same surface sooner than the smallest hop takes: a
  /// ball leaving a surface at the speed of a `minimumHop` hop comes back after 2 √(2 h / g) (90 ms for
  /// 1 cm), so two bounces closer than that are one contact seen twice (pieces of one flight).
  static func oneBouncePerHop(_ events: [MatchEvent], minimumHop: Double) -> [MatchEvent] {
    let shortest = 2 * (2 * minimumHop / 9.81).squareRoot()
    var out: [MatchEvent] = []
    for e in events {
      if e.type == .bounce,
        let previous = out.last(where: { $0.type == .bounce }), previous.surface == e.surface,
        e.time - previous.time < shortest, !out.contains(where: { $0.type != .bounce && $0.time > previous.time })
      {
        continue
      }
      out.append(e)
    }
    return out
  }

  /// A touch of the net before a table bounce: the incoming flight `a` came from one half, its path
  /// reaches the net's plane (the ball's surface on it: centre at one radius) below the net's top before
  /// the bounce, and yet the ball bounces on the half it came from — the net stopped it (ITTF Handbook
  /// 2.2). The time and place where `a`'s path touches the net, or nil.
  func netTouch(
    before a: BallFlight, bounceTime: Double, bouncePosition: SIMD3<Double>, surfaces: BallSurfaces, fps: Double
  ) -> (Double, SIMD3<Double>)? {
    let start = Double(a.frames.lowerBound) / fps
    let side = a.position(at: start).x < 0 ? -1.0 : 1.0
    guard bouncePosition.x * side > 0, a.velocity(at: start).x * side < 0 else { return nil }
    let plane = side * table.ballRadius
    var lo = start, hi = bounceTime
    guard (a.position(at: hi).x - plane) * side <= 0 else { return nil }
    for _ in 0..<40 {
      let mid = (lo + hi) / 2
      if (a.position(at: mid).x - plane) * side > 0 { lo = mid } else { hi = mid }
    }
    let p = a.position(at: hi)
    return surfaces.isNetHeight(p) ? (hi, p) : nil
  }

  /// Whether (x, y) lies on the table top, with the edge slack.
  func onTableTop(_ p: SIMD3<Double>) -> Bool {
    abs(p.x) <= table.length / 2 + options.edgeTolerance && abs(p.y) <= table.width / 2 + options.edgeTolerance
  }

  /// When the incoming flight `a`, followed on from a frame before its last observation (which may lie
  /// on the surface already), comes down to `height` before `limit` (match time, s), and where; nil
  /// when it stays above.
  func descent(of a: BallFlight, to height: Double, before limit: Double, fps: Double) -> (Double, SIMD3<Double>)? {
    var lo = Double(a.frames.upperBound - 1) / fps, hi = limit
    guard lo < hi, a.position(at: lo).z > height, a.position(at: hi).z <= height else { return nil }
    for _ in 0..<40 {
      let mid = (lo + hi) / 2
      if a.position(at: mid).z > height { lo = mid } else { hi = mid }
    }
    return (hi, a.position(at: hi))
  }

  /// When the outgoing flight `b`, followed back in time from its first observation, comes down to
  /// `height` (the ball's centre on the surface): the bounce, timed from the clean flight after it
  /// rather than from where the two fitted flights meet — which can be an earlier touch of the net, or
  /// the incoming flight's poorly fitted end. Searches back at most 0.2 s and no earlier than 0.1 s
  /// before `near`; nil when `b` does not cross `height` there.
  func planeCrossing(_ b: BallFlight, height: Double, near t: Double, fps: Double) -> (Double, SIMD3<Double>)? {
    let start = Double(b.frames.lowerBound) / fps
    let earliest = max(start - 0.2, t - 0.1)
    let step = 0.25 / fps
    var hi = start
    guard b.position(at: hi).z >= height else { return nil }
    var lo = hi - step
    while b.position(at: lo).z >= height {
      guard lo > earliest else { return nil }
      hi = lo
      lo -= step
    }
    for _ in 0..<30 {
      let mid = (lo + hi) / 2
      if b.position(at: mid).z >= height { hi = mid } else { lo = mid }
    }
    return (hi, b.position(at: hi))
  }

  /// The time (between the end of `a` and the start of `b`, widened by a frame) where the two fitted
  /// paths come closest, and the midpoint there. Golden-section search on the distance.
  func meetingPoint(_ a: BallFlight, _ b: BallFlight, fps: Double) -> (Double, SIMD3<Double>) {
    var lo = Double(a.frames.upperBound - 1) / fps, hi = Double(b.frames.lowerBound + 1) / fps
    let ratio = (5.0.squareRoot() - 1) / 2
    let a = a.rebased(at: lo), b = b.rebased(at: lo)
    func gap(_ t: Double) -> Double { length(a.position(at: t) - b.position(at: t)) }
    for _ in 0..<40 {
      let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
      if gap(m1) < gap(m2) { hi = m2 } else { lo = m1 }
    }
    let t = (lo + hi) / 2
    return (t, (a.position(at: t) + b.position(at: t)) / 2)
  }

  /// The player whose wrist is nearest `position` around `frame`, with that distance.
  func nearestPlayer(to position: SIMD3<Double>, frame: Int, wrists: [String: [Int: [SIMD3<Double>]]]) -> (String, Double)? {
    var best: (String, Double)? = nil
    for (track, byFrame) in wrists {
      // The wrist at the contact frame, or the nearest frame within ±3.
      var candidates: [SIMD3<Double>] = []
      for d in [0, -1, 1, -2, 2, -3, 3] {
        if let w = byFrame[frame + d] { candidates = w; break }
      }
      for w in candidates {
        let d = length(w - position)
        if best == nil || d < best!.1 { best = (track, d) }
      }
    }
    return best
  }

  /// Adds rally starts (the first hit after the ball was out of play) and ends (rest or loss).
  func addRallies(_ contacts: [MatchEvent], ball: [Int: SIMD3<Double>], fps: Double) -> [MatchEvent] {
    let frames = ball.keys.sorted()
    guard !frames.isEmpty else { return contacts }
    // Ball-at-rest and ball-lost moments, by frame.
    var ends: [Int] = []
    let lostFrames = Int((options.lostDuration * fps).rounded())
    // Rest: the observations of the next `restDuration` all lie within `restNoise` of their median
    // (a die that stopped rolling), and they cover most of that time (`BallRest`).
    let rests = BallRest.stretches(ball, fps: fps, radius: options.restNoise, hold: options.restDuration)
    var restIndex = 0
    var i = 0
    while i < frames.count {
      let f = frames[i]
      if restIndex < rests.count, rests[restIndex].first == f {
        ends.append(f)
        // Skip the rest of the still stretch.
        while i < frames.count, frames[i] <= rests[restIndex].last { i += 1 }
        restIndex += 1
        continue
      }
      if i + 1 < frames.count, frames[i + 1] - f > lostFrames { ends.append(f) }
      i += 1
    }
    ends.append(frames.last!)
    var out: [MatchEvent] = []
    var rally = 0
    var inRally = false
    var endIndex = 0
    /// The table halves the next bounces of a good rally land on, in order (see below).
    var expectedSides: [TableSide] = []
    /// A rule-based end waiting for confirmation: a stroke soon after it means a hit was missed and
    /// the rally goes on.
    var pending: MatchEvent?
    let confirmFrames = Int((options.decisionConfirmation * fps).rounded())
    func close(_ end: MatchEvent) {
      out.append(end)
      inRally = false
      pending = nil
      expectedSides = []
    }
    func point(_ e: MatchEvent) -> SIMD3<Double>? { e.position }
    for event in contacts.sorted(by: { $0.frame < $1.frame }) {
      // Close the rally when the ball rests or is lost before this event (at the pending decision if any).
      while endIndex < ends.count, ends[endIndex] < event.frame {
        if inRally {
          let f = ends[endIndex]
          close(pending ?? MatchEvent(type: .rallyEnd, frame: f, time: Double(f) / fps, position: ball[f], rally: rally))
        }
        endIndex += 1
      }
      if let p = pending, event.type == .hit {
        if event.frame - p.frame <= confirmFrames { pending = nil } else { close(p) }
      }
      var e = event
      if !inRally, event.type == .hit {
        rally += 1
        inRally = true
        out.append(MatchEvent(type: .rallyStart, frame: event.frame, time: event.time, track: event.track,
                              position: point(event), speed: event.speed, rally: rally))
      }
      guard inRally else {
        out.append(e)
        continue
      }
      e.rally = rally
      out.append(e)
      guard pending == nil else { continue }
      // The rally is decided (ITTF Handbook 2.10.1) at the first bounce no good rally allows: the floor,
      // or a table bounce other than the next expected one — after the serve (the rally's first hit)
      // one on the server's half then one on the receiver's, after any other stroke one on the
      // opponent's half. The hitter's half is the side of the table the hit happened on.
      if e.type == .hit, let x = e.position?.x {
        let own = TableSide(x: x), other = own.other
        expectedSides = out.last(where: { $0.type == .rallyStart })?.frame == e.frame ? [own, other] : [other]
      }
      if e.type == .bounce {
        if e.surface == .table, let side = e.side, expectedSides.first == side {
          expectedSides.removeFirst()
        } else {
          pending = MatchEvent(type: .rallyEnd, frame: e.frame, time: e.time, position: point(e), rally: rally)
        }
      }
    }
    if inRally {
      if let p = pending {
        close(p)
      } else if endIndex < ends.count {
        let f = ends[endIndex]
        close(MatchEvent(type: .rallyEnd, frame: f, time: Double(f) / fps, position: ball[f], rally: rally))
      }
    }
    // A confirmed decision is appended after the events that followed it: restore time order, a
    // rally's end after the other events of its frame.
    func rank(_ e: MatchEvent) -> Int { e.type == .rallyStart ? 0 : e.type == .rallyEnd ? 2 : 1 }
    out = out.enumerated().sorted { a, b in
      (a.element.frame, rank(a.element), a.offset) < (b.element.frame, rank(b.element), b.offset)
    }.map(\.element)
    return out
  }
}
