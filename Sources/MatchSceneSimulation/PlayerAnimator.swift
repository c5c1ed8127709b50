import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an arm's wrist should be at a key: relative to its shoulder in the body's turning frame, or
/// a fixed world point (a ball to strike or to hold).
enum ArmTarget {
  /// (forward, towards the racket side, up), metres.
  case local(SIMD3<Double>)
  case world(SIMD3<Double>)
}

/// Animates one player through a match from the rally script: footwork to each contact placement and
/// back towards the centre, a knee bob, the torso's turn and the racket arm's ready → backswing →
/// contact → follow-through → ready, the serve's ball held still on the free hand and tossed, and the
/// head following the ball. Poses are keyed (`Hermite`), limbs solved by `BodyKinematics`.
struct PlayerAnimator {
  let player: PlayerGeometry
  let pose: HermiteTrack  // (x, y, pelvis height)
  let lean: HermiteTrack  // (lean, 0, 0)
  let twist: HermiteTrack  // (rotation, 0, 0)
  let racketTimes: [Double], racketStops: [Bool], racketTargets: [ArmTarget]
  let freeTimes: [Double], freeStops: [Bool], freeTargets: [ArmTarget]
  let bobAmplitude: Double
  let bobFrequency: Double
  let bobPhase: Double
  /// Technique errors put into chosen strokes (`Technique.deviations`).
  let deviations: DeviationSchedule

  /// Racket wrist in the ready position, (forward, racket side, up) as fractions of the height.
  static let racketReady = SIMD3(0.17, -0.04, -0.19)
  static let freeReady = SIMD3(0.08, -0.12, -0.2)
  static let freeAfterToss = SIMD3(0.10, -0.08, 0.05)

  /// The racket wrist at contact of a `Technique.repeatable` stroke, relative to the racket shoulder
  /// (forward, racket side, up) as fractions of the height.
  static func repeatableContact(_ stroke: Stroke) -> SIMD3<Double> {
    switch stroke {
    case .forehand: SIMD3(0.20, 0.16, -0.12)
    case .backhand: SIMD3(0.24, -0.06, -0.12)
    case .serve: SIMD3(0.16, 0.08, -0.15)
    }
  }

  /// Backswing and follow-through wrist positions per stroke (fractions of the height) and the torso
  /// rotation there (positive: towards the free side).
  static func swing(_ stroke: Stroke) -> (back: SIMD3<Double>, follow: SIMD3<Double>, backTurn: Double, followTurn: Double) {
    switch stroke {
    case .forehand: (SIMD3(-0.03, 0.24, -0.17), SIMD3(0.17, -0.12, 0.02), 0.55, -0.4)
    case .backhand: (SIMD3(0.12, -0.16, -0.16), SIMD3(0.22, 0.06, -0.02), -0.3, 0.2)
    case .serve: (SIMD3(0.0, 0.2, -0.17), SIMD3(0.18, -0.1, -0.05), 0.35, -0.3)
    }
  }

  /// `swing(stroke)` shaped by a player's technique: the wrist's offsets from the ready position scaled
  /// by `backswingSize`, the turns by `trunkRotation` (the defaults return `swing(stroke)` exactly).
  static func swing(_ stroke: Stroke, technique: Technique) -> (
    back: SIMD3<Double>, follow: SIMD3<Double>, backTurn: Double, followTurn: Double
  ) {
    let s = swing(stroke)
    guard technique != Technique() else { return s }
    let k = technique.backswingSize, r = technique.trunkRotation
    return (
      racketReady + k * (s.back - racketReady), racketReady + k * (s.follow - racketReady), r * s.backTurn,
      r * s.followTurn
    )
  }

  init(player: PlayerGeometry, script: RallyScript, tableHalfLength: Double, rng: inout SeededGenerator) {
    self.player = player
    let h = player.dims.height
    let home = SIMD2(player.side * (tableHalfLength + 0.75), rng.uniform(-0.15...0.15))
    let ready = SIMD3(home.x, home.y, player.readyHeight)
    let hits = script.hits.filter { $0.player == player.index }.sorted { $0.time < $1.time }
    let serves = script.serves.filter { $0.player == player.index }
    let repeatable = player.technique.repeatable
    deviations = DeviationSchedule(player.technique.deviations, hitTimes: hits.map(\.time))

    // Footwork keys with priorities: strokes and serves win over recoveries and returns home.
    var keys: [(time: Double, priority: Int, pose: SIMD3<Double>, lean: Double)] = [
      (0, 0, ready, PlayerGeometry.readyLean)
    ]
    for serve in script.serves {
      if serve.player == player.index {
        let s = serve.stance
        keys.append((serve.holdTime - 0.2, 2, SIMD3(s.pelvis.x, s.pelvis.y, s.height), s.lean))
      } else {
        keys.append((serve.holdTime, 1, ready, PlayerGeometry.readyLean))
      }
    }
    for (i, hit) in hits.enumerated() {
      let p = hit.placement
      keys.append((hit.time, 3, SIMD3(p.pelvis.x, p.pelvis.y, p.height), p.lean))
      let next = i + 1 < hits.count ? hits[i + 1].time : hit.time + 2
      let recover = hit.time + min(0.45, (next - hit.time) / 2)
      keys.append((recover, 1, SIMD3(home.x, 0.5 * p.pelvis.y, player.readyHeight), PlayerGeometry.readyLean))
    }
    for end in script.rallyEnds { keys.append((end + 0.8, 0, ready, PlayerGeometry.readyLean)) }
    if repeatable {
      // One stance all match long: the strokes differ by nothing the body does.
      keys = keys.map { ($0.time, $0.priority, ready, PlayerGeometry.readyLean) }
    }
    keys.sort { $0.time < $1.time }
    var kept: [(time: Double, priority: Int, pose: SIMD3<Double>, lean: Double)] = []
    for k in keys {
      // Drop a key too close to a more important one.
      let clash = keys.contains { abs($0.time - k.time) < 0.15 && $0.priority > k.priority }
      if !clash { kept.append(k) }
    }
    pose = HermiteTrack(kept.map { Key(time: $0.time, value: $0.pose, stop: true) })
    lean = HermiteTrack(kept.map { Key(time: $0.time, value: SIMD3($0.lean, 0, 0), stop: true) })

    // Swings: torso turn and racket wrist, each inside a window around its contact.
    var turns: [Key<SIMD3<Double>>] = []
    var racket: [(Double, Bool, ArmTarget)] = []
    for (i, hit) in hits.enumerated() {
      let t = hit.time
      let start = max(t - 0.45, i > 0 ? (hits[i - 1].time + t) / 2 : -.infinity)
      let end = min(t + 0.45, i + 1 < hits.count ? (hits[i + 1].time + t) / 2 : .infinity)
      let s = Self.swing(hit.stroke, technique: player.technique)
      let turnSign = -player.racketLeftSign  // turning towards the racket side is negative for right-handers
      let back = hit.stroke == .serve ? t - 0.2 : t - player.technique.backswingTime
      turns.append(Key(time: start, value: .zero, stop: true))
      racket.append((start, true, .local(Self.racketReady * h)))
      if back > start + 0.02 {
        turns.append(Key(time: back, value: SIMD3(-turnSign * s.backTurn, 0, 0), stop: false))
        racket.append((back, false, .local(s.back * h)))
      }
      turns.append(Key(time: t, value: .zero, stop: false))
      racket.append((t, false, repeatable ? .local(Self.repeatableContact(hit.stroke) * h) : .world(hit.placement.wrist)))
      if t + 0.14 < end - 0.02 {
        turns.append(Key(time: t + 0.14, value: SIMD3(-turnSign * s.followTurn, 0, 0), stop: false))
        racket.append((t + 0.14, false, .local(s.follow * h)))
      }
      turns.append(Key(time: end, value: .zero, stop: true))
      racket.append((end, true, .local(Self.racketReady * h)))
    }
    twist = HermiteTrack(turns)
    let gestures = script.gestures.filter { $0.player == player.index }
    /// An arm held straight up, a little forward and out to its side (the reach caps its length).
    let freeUp = ArmTarget.local(SIMD3(0.04, -0.05, 0.6) * h), racketUp = ArmTarget.local(SIMD3(0.04, 0.05, 0.6) * h)
    for g in gestures where g.kind == .smash || g.kind == .stretch {
      racket += [
        (g.start, true, .local(Self.racketReady * h)), (g.top, true, racketUp), (g.release, true, racketUp),
        (g.end, true, .local(Self.racketReady * h)),
      ]
    }
    racket.sort { $0.0 < $1.0 }
    racket = racket.enumerated().filter { i, k in i == 0 || k.0 > racket[i - 1].0 + 1e-9 }.map(\.element)
    racketTimes = racket.map(\.0)
    racketStops = racket.map(\.1)
    racketTargets = racket.map(\.2)

    // The free hand holds the ball still before the toss and follows it up.
    var free: [(Double, Bool, ArmTarget)] = []
    for serve in serves {
      free.append((serve.holdTime - 0.5, true, .local(Self.freeReady * h)))
      free.append((serve.holdTime, true, .world(serve.holdWrist)))
      free.append((serve.tossTime, true, .world(serve.holdWrist)))
      if let toss = gestures.first(where: { $0.kind == .toss && abs($0.start - serve.tossTime) < 1e-9 }) {
        free += [(toss.top, true, freeUp), (toss.release, true, freeUp), (toss.end, false, .local(Self.freeAfterToss * h))]
      } else {
        free.append((serve.tossTime + 0.2, false, .local(Self.freeAfterToss * h)))
      }
      free.append((serve.contactTime + 0.4, true, .local(Self.freeReady * h)))
    }
    for g in gestures where g.kind == .claim || g.kind == .stretch {
      free += [
        (g.start, true, .local(Self.freeReady * h)), (g.top, true, freeUp), (g.release, true, freeUp),
        (g.end, true, .local(Self.freeReady * h)),
      ]
    }
    free.sort { $0.0 < $1.0 }
    freeTimes = free.map(\.0)
    freeStops = free.map(\.1)
    freeTargets = free.map(\.2)

    bobAmplitude = repeatable ? 0 : 0.008
    bobFrequency = rng.uniform(1.4...1.9)
    bobPhase = rng.uniform(0...(2 * Double.pi))
  }

  /// The 17 COCO keypoints at time `t`; the head looks at `ball` when present.
  func joints(at t: Double, ball: SIMD3<Double>?) -> [SIMD3<Double>] {
    let d = player.dims
    let p = pose(t)
    let rotation = twist.isEmpty ? 0 : twist(t).x
    let leanAngle = lean(t).x
    let pelvisXY = SIMD2(p.x, p.y)
    let ankles = player.ankles(pelvisXY: pelvisXY)
    // Keep both feet flat: cap the pelvis height by what the legs can reach.
    let flat = BodyKinematics.torso(
      d, pelvis: SIMD3(p.x, p.y, 0), heading: player.heading, rotation: rotation, lean: leanAngle)
    let leg = 0.995 * d.legLength
    var zMax = Double.infinity
    for (hip, ankle) in [(flat.leftHip, ankles.left), (flat.rightHip, ankles.right)] {
      let dx = hip.x - ankle.x, dy = hip.y - ankle.y
      zMax = min(zMax, ankle.z + max(0, leg * leg - dx * dx - dy * dy).squareRoot())
    }
    let z = min(p.z + bobAmplitude * sin(2 * Double.pi * bobFrequency * t + bobPhase), zMax)
    let pelvis = SIMD3(p.x, p.y, z)
    let torso = BodyKinematics.torso(d, pelvis: pelvis, heading: player.heading, rotation: rotation, lean: leanAngle)
    let yaw = player.heading + rotation
    let forward = SIMD3(cos(yaw), sin(yaw), 0)
    let racketSide = player.racketLeftSign * SIMD3(-sin(yaw), cos(yaw), 0)
    func wrist(
      shoulder: SIMD3<Double>, times: [Double], stops: [Bool], targets: [ArmTarget], ready: SIMD3<Double>
    ) -> SIMD3<Double> {
      func vector(_ target: ArmTarget) -> SIMD3<Double> {
        switch target {
        case .local(let v): v.x * forward + v.y * racketSide + SIMD3(0, 0, v.z)
        case .world(let w): w - shoulder
        }
      }
      var v =
        times.isEmpty
        ? vector(.local(ready * d.height))
        : Hermite.evaluate(times: times, stops: stops, at: t) { vector(targets[$0]) }
      let reach = 0.985 * d.armReach
      if length(v) > reach { v *= reach / length(v) }
      return shoulder + v
    }
    let racketWrist = wrist(
      shoulder: player.racketShoulder(torso), times: racketTimes, stops: racketStops, targets: racketTargets,
      ready: Self.racketReady)
    let freeWrist = wrist(
      shoulder: player.freeShoulder(torso), times: freeTimes, stops: freeStops, targets: freeTargets,
      ready: Self.freeReady)
    let right = player.handedness == .right
    let look = ball ?? SIMD3(-player.side * 1.5, 0, 1.0)
    var joints = BodyKinematics.joints(
      d,
      BodyPose(
        pelvis: pelvis, heading: player.heading, rotation: rotation, lean: leanAngle, lookAt: look,
        leftWrist: right ? freeWrist : racketWrist, rightWrist: right ? racketWrist : freeWrist,
        leftAnkle: ankles.left, rightAnkle: ankles.right))
    deviations.apply(to: &joints, at: t, racketRight: right)
    return joints
  }
}
