import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Plays the rallies of a match with the ball physics: serves (toss, bounce on the server's half, then
/// on the receiver's half — ITTF Handbook 2024, rule 2.6), solved shots to targets on the opponent's
/// half, a receiver who strikes the ball after its bounce near the end of the table, and rallies that
/// end when a player misses or hits the net, once the ball rests or leaves the playing area.
///
/// Strokes happen exactly at frame instants (the ball's internal step divides the frame interval), so
/// every hit event falls on its frame; bounces and net contacts happen at any time.
struct RallySimulator {
  let physics: BallPhysics
  let solver: ShotSolver
  let players: [PlayerGeometry]
  let fps: Double
  let frameCount: Int
  let substeps: Int
  let config: SimulationConfig
  var rng: SeededGenerator
  var script: RallyScript
  /// How the rally being played was decided: its winner (player index), why (`point` reasons) and when.
  var decision: (winner: Int, reason: PointReason, time: Double, position: SIMD3<Double>)?
  /// The shot in flight was aimed deep for an early return (`SimulationConfig.earlyHitRate`).
  var earlyReturn = false
  /// Draws each stroke's spin (its own stream, so a match without spin is the match it was before
  /// spin existed).
  var spinRNG: SeededGenerator
  /// The angular velocity of the last solved serve or shot, rad/s.
  var launchedSpin = SIMD3<Double>.zero

  /// Longest a rally may last after its serve, seconds (a safety net; rallies end much sooner).
  static let maximumRally = 40.0
  /// How long a ball at rest stays visible before it is picked up, seconds.
  static let lyingStill = 0.5

  init(config: SimulationConfig, physics: BallPhysics, players: [PlayerGeometry], fps: Double, frameCount: Int) {
    self.config = config
    self.physics = physics
    self.players = players
    self.fps = fps
    self.frameCount = frameCount
    substeps = max(1, Int((1 / fps / config.maxPhysicsStep).rounded(.up)))
    solver = ShotSolver(physics: physics, step: 1 / fps / Double(substeps))
    rng = RandomStream.rallies.generator(seed: config.seed)
    spinRNG = RandomStream.ballSpin.generator(seed: config.seed)
    script = RallyScript(ball: [SIMD3<Double>?](repeating: nil, count: frameCount))
  }

  var halfLength: Double { physics.tableLength / 2 }
  var halfWidth: Double { physics.tableWidth / 2 }
  var top: Double { physics.surfaceHeight }

  func time(_ frame: Int) -> Double { Double(frame) / fps }

  /// Advances the ball by one frame; contact times are absolute (seconds since frame 0).
  func advanceFrame(_ state: inout BallState, from frame: Int) -> [BallContact] {
    let h = 1 / fps / Double(substeps)
    var contacts: [BallContact] = []
    for k in 0..<substeps {
      if state.mode == .resting { break }
      let start = time(frame) + Double(k) * h
      for var c in physics.advance(&state, by: h) {
        c.time += start
        contacts.append(c)
      }
    }
    return contacts
  }

  mutating func record(_ frame: Int, _ p: SIMD3<Double>) {
    if frame >= 0, frame < frameCount { script.ball[frame] = p }
  }

  mutating func emit(_ event: MatchEvent) {
    if event.frame >= 0, event.frame < frameCount { script.events.append(event) }
  }

  func frame(of t: Double) -> Int { Int((t * fps).rounded()) }

  // MARK: - Match

  mutating func run() -> RallyScript {
    var holdFrame = Int((0.5 * fps).rounded())
    let firstServer = rng.integer(0...1)
    var rally = 0
    // The service order and the score by the rules (ITTF 2.11–2.14): the server passes after every
    // two points, and after every point from 10–10; the next game's first server is the first receiver.
    var score = ScoreState(rules: config.scoreRules, firstServer: firstServer)
    var gestures = GesturePlanner(config: config.gestures, seed: config.seed, players: players)
    while holdFrame < frameCount {
      rally += 1
      let server = score.server
      decision = nil
      let end = playRally(rally, server: server, holdFrame: holdFrame)
      script.rallyEnds.append(end)
      let next = Int((end * fps).rounded(.up)) + Int((rng.uniform(config.pause) * fps).rounded())
      if let d = decision {
        score.award(to: d.winner)
        var point = MatchEvent(
          type: .point, frame: frame(of: d.time), time: d.time, track: players[d.winner].id, position: d.position, rally: rally)
        point.reason = d.reason
        point.score = [players[0].id: score.points[0], players[1].id: score.points[1]]
        point.games = [players[0].id: score.games[0], players[1].id: score.games[1]]
        point.server = players[score.server].id
        emit(point)
        gestures.plan(after: d.time, winner: d.winner, nextHold: time(next), into: &script)
      }
      holdFrame = next
    }
    for rest in script.rests where rest.frame < frameCount { script.events.append(rest) }
    for var claim in script.claims where gestureFits(claim) {
      claim.frame = frame(of: claim.time)
      script.events.append(claim)
    }
    script.gestures.removeAll { $0.end * fps >= Double(frameCount) }
    // In time order; at the same instant a rally starts before its first hit.
    func rank(_ k: MatchEvent.Kind) -> Int { k == .rallyStart ? 0 : k == .rallyEnd ? 2 : k == .point ? 3 : 1 }
    script.events.sort { ($0.time, rank($0.type)) < ($1.time, rank($1.type)) }
    return script
  }

  // MARK: - Serve

  /// Plays one rally from the moment the server holds the ball; returns the time the ball is gone
  /// (picked up after coming to rest, out of the playing area, or the match over).
  mutating func playRally(_ rally: Int, server: Int, holdFrame: Int) -> Double {
    let srv = players[server]
    let d = srv.dims
    earlyReturn = false  // the serve is returned as usual
    // Stance behind the end line, crouched, the ball resting on the open free hand above table height
    // and behind the end line (rule 2.6.1).
    var stanceXY = SIMD2(srv.side * (halfLength + 0.70), rng.uniform(-0.5...0.5))
    let stanceHeight = srv.readyHeight - 0.06 * d.height
    let stanceLean = 0.4
    let ballHeight = top + rng.uniform(0.06...0.14)
    var torso = BodyKinematics.torso(
      d, pelvis: SIMD3(stanceXY.x, stanceXY.y, stanceHeight), heading: srv.heading, rotation: 0, lean: stanceLean)
    var holdWrist = SIMD3<Double>.zero
    var ballHold = SIMD3<Double>.zero
    for _ in 0..<4 {
      let freeShoulder = srv.freeShoulder(torso)
      holdWrist = freeShoulder + 0.17 * d.height * srv.forward + 0.09 * d.height * srv.racketSide
      holdWrist.z = ballHeight - 0.035
      let arm = holdWrist - freeShoulder
      if length(arm) > 0.9 * d.armReach { holdWrist = freeShoulder + arm * (0.9 * d.armReach / length(arm)) }
      ballHold = holdWrist + 0.06 * srv.forward + SIMD3(0, 0, 0.035)
      let behind = srv.side * ballHold.x - (halfLength + 0.05)
      if behind >= 0 { break }
      stanceXY.x += srv.side * (0.02 - behind)
      torso = BodyKinematics.torso(
        d, pelvis: SIMD3(stanceXY.x, stanceXY.y, stanceHeight), heading: srv.heading, rotation: 0, lean: stanceLean)
    }
    let tossFrame = holdFrame + Int((rng.uniform(0.6...1.0) * fps).rounded())
    if config.gestures.highTosses {
      // The free hand follows the toss up above the head for a moment (no random draw: the rallies'
      // stream is untouched).
      let t = time(tossFrame)
      script.gestures.append(SimulatedGesture(kind: .toss, player: server, start: t, top: t + 0.25, release: t + 0.35, end: t + 0.6))
    }
    for f in holdFrame..<tossFrame { record(f, ballHold) }
    restTruth(from: holdFrame, until: tossFrame, at: ballHold)

    // Toss: nearly vertically, at least 16 cm (rule 2.6.2), struck on the way down.
    let tossHeight = rng.uniform(0.25...0.5)
    var state = BallState(
      position: ballHold, velocity: SIMD3(0, 0, (2 * physics.ball.gravity * tossHeight).squareRoot() * 1.03))
    var f = tossFrame
    record(f, state.position)
    let contactHeight = max(ballHold.z + rng.uniform(0.1...0.25), top + 0.26)
    while true {
      _ = advanceFrame(&state, from: f)
      f += 1
      record(f, state.position)
      if state.velocity.z < 0, state.position.z <= contactHeight { break }
      if f - tossFrame > Int(3 * fps) { break }
    }
    let contactFrame = f
    let tContact = time(f)
    let ballAtContact = state.position
    let racketShoulder = srv.racketShoulder(torso)
    var toBall = ballAtContact - racketShoulder
    toBall.z = 0
    let wrist = ballAtContact - PlayerGeometry.racketReach * normalize(toBall)
    let stance = ContactPlacement(pelvis: stanceXY, height: stanceHeight, lean: stanceLean, wrist: wrist)
    script.serves.append(
      PlannedServe(
        player: server, holdTime: time(holdFrame), tossTime: time(tossFrame), contactTime: tContact, stance: stance,
        holdWrist: holdWrist))

    guard let v0 = solveServe(from: ballAtContact, server: srv) else {
      // No legal serve found (never seen in practice): the tossed ball drops and the point is lost.
      decision = (1 - server, .badServe, tContact, ballAtContact)
      return finishRally(rally, state: state, frame: contactFrame, server: server, served: false)
    }
    state.velocity = v0
    state.spin = launchedSpin
    script.spins.append(SimulatedSpinSegment(time: tContact, spin: state.spin, velocity: v0))
    script.hits.append(PlannedHit(time: tContact, player: server, stroke: .serve, ball: ballAtContact, placement: stance))
    emit(
      MatchEvent(
        type: .rallyStart, frame: contactFrame, time: tContact, track: srv.id, position: ballAtContact,
        speed: length(v0), rally: rally))
    emit(
      MatchEvent(
        type: .hit, frame: contactFrame, time: tContact, track: srv.id, position: ballAtContact, speed: length(v0),
        rally: rally))
    return finishRally(rally, state: state, frame: contactFrame, server: server, served: true)
  }

  /// A legal serve from `p0` that the receiver can return, checked by replaying it with the full
  /// contact model.
  mutating func solveServe(from p0: SIMD3<Double>, server srv: PlayerGeometry) -> SIMD3<Double>? {
    var solver = self.solver
    solver.spin = strokeSpin(.serve)
    // Mostly long serves the receiver can return after they leave the table, some short ones.
    let preferLong = rng.chance(0.85)
    for attempt in 0..<40 {
      let long = preferLong && attempt < 20
      let b1 = SIMD2(srv.side * rng.uniform(0.45...1.2), rng.uniform(-(halfWidth - 0.2)...(halfWidth - 0.2)))
      let speeds = stride(from: 2.5, through: 9.0, by: 0.5).map { $0 + rng.uniform(0...0.4) }
      let legal = solver.serves(from: p0, firstBounce: b1, speeds: speeds).filter {
        let depth = -srv.side * $0.secondBounce.x
        return $0.clearance >= 0.02 && abs($0.secondBounce.y) <= halfWidth - 0.06 && depth <= halfLength - 0.05
          && (long ? depth >= 0.8 : depth >= 0.3)
      }
      guard !legal.isEmpty else { continue }
      let v0 = legal[rng.integer(0...(legal.count - 1))].velocity
      let launch = BallState(position: p0, velocity: v0, spin: solver.launchSpin(v0))
      let contacts = replay(from: launch, count: 2)
      if contacts.count == 2, contacts[0].kind == .table, srv.side * contacts[0].position.x > 0,
        contacts[1].kind == .table, srv.side * contacts[1].position.x < 0,
        isReturnable(launch, frame: 0, receiver: players[1 - srv.index], ownBounces: 1)
      {
        launchedSpin = launch.spin
        return v0
      }
    }
    return nil
  }

  /// The first `count` contacts of a flight with the full contact model (up to 4 s).
  func replay(from state: BallState, count: Int) -> [BallContact] {
    var s = state
    var contacts: [BallContact] = []
    var f = 0
    while contacts.count < count, f < Int(4 * fps), s.mode != .resting {
      contacts += advanceFrame(&s, from: f)
      f += 1
    }
    return Array(contacts.prefix(count))
  }

  /// Records a true `ball_at_rest` from `first` (the ball still from then) to before `end`, when it
  /// lasts at least the detector's default hold.
  mutating func restTruth(from first: Int, until end: Int, at position: SIMD3<Double>) {
    let last = min(end, frameCount) - 1
    guard Double(last - first + 1) / fps >= Self.restHold else { return }
    var e = MatchEvent(type: .ballAtRest, frame: first, time: time(first), position: position)
    e.duration = Double(last - first + 1) / fps
    script.rests.append(e)
  }

  /// Whether a claim's gesture ends inside the match.
  func gestureFits(_ claim: MatchEvent) -> Bool {
    script.gestures.contains { $0.kind == .claim && abs($0.top + 1.0 - claim.time) < 1e-9 && $0.end * fps < Double(frameCount) }
  }

  /// The shortest stillness recorded as a true `ball_at_rest`, seconds (the detector's default hold).
  static let restHold = 0.3
  /// A rolling ball is at rest, in the truth, from when it stays within this distance of where it
  /// stops, metres (the detector's smallest radius).
  static let restTruthRadius = 0.01

  // MARK: - Rally

  /// The smallest rebound height that counts as a bounce event, metres.
  static let minimumEventHop = 0.01

  /// Follows the ball after the serve: bounces, the receiver's strokes, and the end of the rally.
  /// Returns the time the rally ends.
  mutating func finishRally(_ rally: Int, state startState: BallState, frame startFrame: Int, server: Int, served: Bool)
    -> Double
  {
    var state = startState
    var f = startFrame
    let shotCount = rng.integer(config.shotsPerRally)
    let netEnding = rng.chance(config.netProbability)
    var shots = served ? 1 : shotCount
    var hitter = server
    var lastHitTime = time(startFrame)
    var plannedContact: (frame: Int, stroke: Stroke, placement: ContactPlacement)?
    var awaiting = shots < shotCount
    var receiverBounces = 0
    let lastFrame = startFrame + Int(Self.maximumRally * fps)
    // The rally is decided (ITTF Handbook 2.5.3, 2.10.1) at the first contact that no good rally
    // allows — the floor, or a table bounce other than the next one expected: after the serve one on
    // the server's half then one on the receiver's; after any other stroke one on the opponent's half —
    // or when the ball comes to rest or leaves the area, whichever comes first; `rally_end` marks that
    // moment. The ball is still followed (and recorded) until it rests.
    var expectedSides: [Double] = served ? [players[server].side, players[1 - server].side] : []
    var decided = false
    var serveShot = served
    var netSinceHit = false
    /// The rally is decided: the last hitter wins when the stroke reached the opponent's half (the
    /// next expected bounce list is empty), else loses it (`PointJudge`'s reasons).
    func decide(at t: Double, _ position: SIMD3<Double>, tableBounce: Bool = false) {
      guard !decided else { return }
      decided = true
      emit(MatchEvent(type: .rallyEnd, frame: frame(of: t), time: t, position: position, speed: 0, rally: rally))
      guard served else { return }
      let good = expectedSides.isEmpty
      let onOpponent = tableBounce && players[1 - hitter].side * position.x > 0
      let reason: PointReason = good ? (onOpponent ? .doubleBounce : .missedReturn) : netSinceHit ? .net : serveShot ? .badServe : .offTable
      decision = (good ? hitter : 1 - hitter, reason, t, position)
    }
    while true {
      let contacts = advanceFrame(&state, from: f)
      f += 1
      record(f, state.position)
      var bouncedOnReceiver = false
      for c in contacts where c.kind != .rest {
        script.spins.append(SimulatedSpinSegment(time: c.time, spin: c.spinAfter, velocity: c.velocityAfter))
      }
      for c in contacts {
        switch c.kind {
        case .table, .floor:
          // A bounce is an event when the ball visibly hops again: a rebound of at least 1 cm
          // (v_z ≥ √(2 g · 1 cm)). Smaller hops, as a ball settles, are part of it rolling out.
          guard c.velocityAfter.z >= (2 * 9.81 * Self.minimumEventHop).squareRoot() else { break }
          let onTable = c.kind == .table
          emit(
            MatchEvent(
              type: .bounce, frame: frame(of: c.time), time: c.time, position: c.position,
              speed: length(c.velocityAfter), surface: onTable ? .table : .floor,
              side: onTable ? TableSide(x: c.position.x) : nil, rally: rally))
          if onTable, players[1 - hitter].side * c.position.x > 0 {
            receiverBounces += 1
            bouncedOnReceiver = receiverBounces == 1
          }
          if onTable, let next = expectedSides.first, next * c.position.x > 0 {
            expectedSides.removeFirst()
          } else {
            decide(at: c.time, c.position, tableBounce: onTable)
          }
        case .net:
          emit(
            MatchEvent(
              type: .net, frame: frame(of: c.time), time: c.time, track: players[hitter].id, position: c.position,
              speed: length(c.velocityAfter), rally: rally))
          awaiting = false
          if !expectedSides.isEmpty { netSinceHit = true }
        case .rest:
          decide(at: c.time, c.position)
          // The ball lies still until someone picks it up.
          for k in 1...Int((Self.lyingStill * fps).rounded()) { record(f + k, c.position) }
          // At rest from the first frame the (rolling) ball stays within `restTruthRadius` of where it stops.
          var still = min(f, frameCount - 1)
          while still > 0, let p = script.ball[still - 1], length(p - c.position) <= Self.restTruthRadius { still -= 1 }
          restTruth(from: still, until: f + Int((Self.lyingStill * fps).rounded()) + 1, at: c.position)
          return c.time + Self.lyingStill
        }
      }
      if !contacts.isEmpty, plannedContact != nil, contacts.contains(where: { $0.kind != .table }) {
        plannedContact = nil  // the planned stroke cannot happen any more
        awaiting = false
      }
      if !physics.isInsideArea(state.position) || f >= lastFrame {
        let t = time(f)
        decide(at: t, state.position)
        return t
      }
      if f >= frameCount { return time(f) }
      if awaiting, bouncedOnReceiver, plannedContact == nil {
        plannedContact = chooseContact(state: state, frame: f, receiver: players[1 - hitter], after: lastHitTime)
        if plannedContact == nil { awaiting = false }
      }
      guard let plan = plannedContact, plan.frame == f else { continue }
      // The receiver strikes.
      let striker = players[1 - hitter]
      plannedContact = nil
      shots += 1
      let final = shots >= shotCount
      guard let v0 = solveShot(from: state.position, striker: striker, stroke: plan.stroke, intoNet: final && netEnding) else {
        awaiting = false
        shots -= 1
        continue
      }
      state.velocity = v0
      state.spin = launchedSpin
      state.mode = .flying
      let t = time(f)
      script.spins.append(SimulatedSpinSegment(time: t, spin: state.spin, velocity: v0))
      script.hits.append(
        PlannedHit(time: t, player: striker.index, stroke: plan.stroke, ball: state.position, placement: plan.placement))
      emit(
        MatchEvent(
          type: .hit, frame: f, time: t, track: striker.id, position: state.position, speed: length(v0), rally: rally))
      hitter = striker.index
      serveShot = false
      netSinceHit = false
      lastHitTime = t
      receiverBounces = 0
      expectedSides = [players[1 - hitter].side]
      awaiting = !final
    }
  }

  /// Heights of the ball's centre at which a player behind the end line strikes it, metres (between
  /// knee and shoulder height of an adult in the ready stance).
  static let reachableContactHeight = 0.8...1.3

  /// Looks ahead from the bounce on the receiver's half and picks the frame of the stroke among those
  /// where the ball is near or beyond the end of the table at a height the receiver can reach. The
  /// stroke is a forehand when the ball comes to the racket side (with some personal preference); when
  /// that stroke cannot reach the ball, the other one is tried.
  mutating func chooseContact(state: BallState, frame: Int, receiver: PlayerGeometry, after lastHit: Double)
    -> (frame: Int, stroke: Stroke, placement: ContactPlacement)?
  {
    let lateral = dot(state.position - SIMD3(receiver.side * (halfLength + 0.7), 0, 0), receiver.racketSide)
    let preferred: Stroke = lateral > rng.uniform(-0.35...0.1) ? .forehand : .backhand
    if earlyReturn, let early = earlyContact(state: state, frame: frame, receiver: receiver, preferred: preferred, after: lastHit) {
      return early
    }
    for stroke in [preferred, preferred == .forehand ? .backhand : .forehand] {
      let candidates = contactCandidates(state: state, frame: frame, receiver: receiver, stroke: stroke, after: lastHit)
      guard !candidates.isEmpty else { continue }
      let pick = candidates[rng.integer(0...(candidates.count - 1))]
      return (pick.frame, stroke, pick.placement)
    }
    return nil
  }

  /// The frames (with body placements) at which `receiver` can strike the ball with `stroke`, looking
  /// ahead up to 1.5 s of free flight from `state` at `frame`: the ball near or beyond the end line
  /// (`halfLength − 0.5` to `halfLength + 0.7` from the net), at a reachable height, at least 0.3 s
  /// after the previous stroke. Deterministic (no random draw).
  func contactCandidates(
    state: BallState, frame: Int, receiver: PlayerGeometry, stroke: Stroke, after lastHit: Double
  ) -> [(frame: Int, placement: ContactPlacement)] {
    var s = state
    var f = frame
    var candidates: [(frame: Int, placement: ContactPlacement)] = []
    while f < frame + Int(1.5 * fps) {
      let contacts = advanceFrame(&s, from: f)
      f += 1
      if !contacts.isEmpty || s.mode != .flying { break }
      let p = s.position
      let depth = receiver.side * p.x
      guard depth >= halfLength - 0.5, depth <= halfLength + 0.7, Self.reachableContactHeight.contains(p.z),
        time(f) - lastHit >= 0.3, time(f) - time(frame) >= 0.05
      else { continue }
      if let placement = receiver.placement(ball: p, stroke: stroke, tableHalfLength: halfLength) {
        candidates.append((f, placement))
      }
    }
    return candidates
  }

  /// An early return (`SimulationConfig.earlyHitRate`): the frame 1–3 frames after the bounce that
  /// happened during the frame ending at `frame` (drawn uniformly among those the receiver can reach,
  /// standing at least 0.1 m behind the end line, with `preferred` tried first), or nil.
  mutating func earlyContact(
    state: BallState, frame: Int, receiver: PlayerGeometry, preferred: Stroke, after lastHit: Double
  ) -> (frame: Int, stroke: Stroke, placement: ContactPlacement)? {
    // The bounce lies in (frame − 1, frame]; it rounds to frame − 1 or frame.
    let bounceTime = script.events.last(where: { $0.type == .bounce })?.time ?? time(frame)
    let bounceFrame = self.frame(of: bounceTime)
    for stroke in [preferred, preferred == .forehand ? .backhand : .forehand] {
      var s = state
      var candidates: [(frame: Int, placement: ContactPlacement)] = []
      for f in frame...(bounceFrame + 3) {
        if f > frame {
          let contacts = advanceFrame(&s, from: f - 1)
          if !contacts.isEmpty || s.mode != .flying { break }
        }
        guard f - bounceFrame >= 1, time(f) - lastHit >= 0.3 else { continue }
        if let placement = receiver.placement(ball: s.position, stroke: stroke, tableHalfLength: halfLength, minimumBackOffset: 0.1) {
          candidates.append((f, placement))
        }
      }
      guard !candidates.isEmpty else { continue }
      let pick = candidates[rng.integer(0...(candidates.count - 1))]
      return (pick.frame, stroke, pick.placement)
    }
    return nil
  }

  /// Whether `receiver` can return a ball struck at `frame` with `state`: after `ownBounces` bounces on
  /// the striker's half (1 for a serve, 0 otherwise) it bounces on the receiver's half and then passes
  /// where a forehand or a backhand can reach it.
  func isReturnable(_ state: BallState, frame: Int, receiver: PlayerGeometry, ownBounces: Int = 0) -> Bool {
    var s = state
    var f = frame
    var own = 0
    while f < frame + Int(4 * fps), s.mode == .flying {
      let contacts = advanceFrame(&s, from: f)
      f += 1
      for (k, c) in contacts.enumerated() {
        guard c.kind == .table else { return false }
        if receiver.side * c.position.x < 0 {
          own += 1
          if own > ownBounces { return false }
          continue
        }
        guard own == ownBounces, k == contacts.count - 1 else { return false }
        return [Stroke.forehand, .backhand].contains {
          !contactCandidates(state: s, frame: f, receiver: receiver, stroke: $0, after: time(frame)).isEmpty
        }
      }
    }
    return false
  }

  /// Launch velocity of a stroke from `p0`: a shot that clears the net and lands on the opponent's
  /// half, or (`intoNet`) one that ends in the net; checked by replaying it with the full contact model.
  mutating func solveShot(from p0: SIMD3<Double>, striker: PlayerGeometry, stroke: Stroke, intoNet: Bool) -> SIMD3<Double>? {
    let opponentSide = -striker.side
    earlyReturn = false
    var solver = self.solver
    solver.spin = strokeSpin(stroke)
    for attempt in 0..<24 {
      let decay = pow(0.93, Double(attempt))
      if intoNet {
        let y = rng.uniform(-0.6...0.6) * halfWidth
        let z = top + rng.uniform(0.03...(physics.netHeight - 0.01))
        guard let v0 = solver.netShot(from: p0, horizontalSpeed: rng.uniform(5...9) * decay, y: y, z: z) else {
          continue
        }
        let contacts = replay(from: BallState(position: p0, velocity: v0, spin: solver.launchSpin(v0)), count: 1)
        if contacts.first?.kind == .net {
          launchedSpin = solver.launchSpin(v0)
          return v0
        }
      } else {
        // An early return needs a deep ball: it bounces within 0.35 m of the end line.
        if config.earlyHitRate > 0, attempt == 0 { earlyReturn = rng.chance(config.earlyHitRate) }
        let depth = earlyReturn ? (halfLength - 0.35)...(halfLength - 0.1) : 0.25...(halfLength - 0.12)
        let target = SIMD2(
          opponentSide * rng.uniform(depth), rng.uniform(-(halfWidth - 0.1)...(halfWidth - 0.1)))
        let hs = rng.uniform(4.5...10) * decay
        guard
          let v0 = solver.rallyShot(
            from: p0, horizontalSpeed: hs, target: target, margin: rng.uniform(0.02...0.2))
        else { continue }
        let contacts = replay(from: BallState(position: p0, velocity: v0, spin: solver.launchSpin(v0)), count: 1)
        if let c = contacts.first, c.kind == .table, opponentSide * c.position.x > 0 {
          launchedSpin = solver.launchSpin(v0)
          return v0
        }
      }
    }
    return nil
  }
}
