import MatchSceneCore

/// Which hand holds the racket.
public enum Handedness: String, Sendable, Equatable, CaseIterable {
  case right, left
}

/// One simulated player's body.
public struct PlayerConfig: Sendable, Equatable {
  /// Standing height, metres; every bone length scales with it (anthropometric proportions).
  public var height: Double
  public var handedness: Handedness
  /// How the player swings; the defaults give the simulator's standard strokes.
  public var technique: Technique
  public init(height: Double, handedness: Handedness = .right, technique: Technique = Technique()) {
    self.height = height
    self.handedness = handedness
    self.technique = technique
  }
}

/// Technique knobs of a simulated player's strokes. At their defaults (all 1, 0.16 s) the simulated
/// match is bit for bit what it was before the knobs existed.
public struct Technique: Sendable, Equatable {
  /// Scales the torso's turn in the backswing and the follow-through (the X-factor), 0…3.
  public var trunkRotation: Double
  /// Scales the racket wrist's backswing and follow-through offsets from the shoulder, 0.3…2.
  public var backswingSize: Double
  /// Time from the backswing's end to contact, seconds, 0.08…0.3 (0.2 s for serves is kept).
  public var backswingTime: Double
  /// Every stroke of a kind played alike relative to the body (`PlayerAnimator`): the player stays in
  /// the ready stance, the contact is a fixed point relative to the racket shoulder instead of the ball,
  /// no knee bob. Detected strokes then differ only by detection noise (and by `deviations`).
  public var repeatable = false
  /// Known technique errors put into chosen strokes (`StrokeDeviation`), written to the truth.
  public var deviations: [StrokeDeviation] = []
  public init(trunkRotation: Double = 1, backswingSize: Double = 1, backswingTime: Double = 0.16) {
    self.trunkRotation = trunkRotation
    self.backswingSize = backswingSize
    self.backswingTime = backswingTime
  }

  /// The accepted ranges of the knobs.
  public static let trunkRotationRange: ClosedRange<Double> = 0...3
  public static let backswingSizeRange: ClosedRange<Double> = 0.3...2
  public static let backswingTimeRange: ClosedRange<Double> = 0.08...0.3

  func validate(player i: Int) throws {
    func fail(_ key: String, _ message: String) -> InputError {
      InputError(file: "simulation", location: .key("players[\(i + 1)].technique.\(key)"), message)
    }
    guard Self.trunkRotationRange.contains(trunkRotation) else {
      throw fail("trunk_rotation", "must lie in 0…3, got \(trunkRotation)")
    }
    guard Self.backswingSizeRange.contains(backswingSize) else {
      throw fail("backswing_size", "must lie in 0.3…2, got \(backswingSize)")
    }
    guard Self.backswingTimeRange.contains(backswingTime) else {
      throw fail("backswing_time", "must lie in 0.08…0.3 s, got \(backswingTime)")
    }
    for (k, d) in deviations.enumerated() {
      guard d.stroke >= 1 || d.stroke == StrokeDeviation.everyStroke else {
        throw fail("deviations[\(k + 1)].stroke", "must be 1 or more (0: every stroke), got \(d.stroke)")
      }
      guard d.degrees.isFinite, abs(d.degrees) <= 90 else {
        throw fail("deviations[\(k + 1)].degrees", "must lie in −90…90°, got \(d.degrees)")
      }
      guard d.halfWidth > 0, d.halfWidth <= 0.5 else {
        throw fail("deviations[\(k + 1)].half_width", "must lie in (0, 0.5] s, got \(d.halfWidth)")
      }
    }
  }
}

/// Everything that shapes a simulated match. Defaults give 30 s of table tennis seen by four cameras
/// with realistic detector faults.
public struct SimulationConfig: Sendable, Equatable {
  /// Seed of every random choice; the same configuration and seed give the same match bit for bit.
  public var seed: UInt64
  /// Length of the match, seconds (the last rally may be cut short).
  public var duration: Double
  /// Frame rate; nil uses the sport's default (60 for table tennis).
  public var fps: Double?
  public var rig: RigConfig
  /// Exactly two players: `P1` plays from negative x, `P2` from positive x.
  public var players: [PlayerConfig]
  public var noise: DetectionNoise
  /// Number of shots of a rally, serve included, drawn uniformly (a rally may end earlier if a ball
  /// cannot be reached).
  public var shotsPerRally: ClosedRange<Int>
  /// Probability that a rally's last shot ends in the net instead of being missed by the receiver.
  public var netProbability: Double
  /// Pause between rallies (ball absent), seconds, drawn uniformly.
  public var pause: ClosedRange<Double>
  /// Largest internal integration step of the ball, seconds (the frame interval is split evenly).
  public var maxPhysicsStep: Double
  /// The scoring rules the service order follows (and the true `point` events' score).
  public var scoreRules = ScoreRules()
  /// Hand-raise claims and decoy gestures between rallies (off by default).
  public var gestures = GestureConfig()
  /// Cameras started at different times and phases (off by default).
  public var unsync = CameraUnsync()
  /// Share of returns (0…1) the receiver strikes early, 1–3 frames after the ball's bounce on their
  /// half (a fast exchange close to the table); the shot before such a return is aimed deep. 0 (the
  /// default) keeps the match bit for bit what it was before the option existed.
  public var earlyHitRate: Double = 0
  /// People cross each other's path: the bystander (when there is one) walks across the hall right
  /// behind one player, back and forth, instead of along its side. Off by default.
  public var crossing = false
  /// The ball's drag constant varies by up to this fraction (±) around the sport file's, one draw per
  /// match (balls and air differ); 0 (the default) keeps the sport's. `simulate --drag-variation 0.2`.
  public var ballDragVariation: Double = 0
  /// Largest spin a stroke gives the ball, rev/s (topspin, backspin, sidespin by the stroke's kind;
  /// the Magnus force bends its flights, bounces change it); 0 (the default): no spin — the world the
  /// other simulated checks were chosen in. `simulate --max-spin 150` spins.
  public var ballSpin: Double = 0

  public init(
    seed: UInt64 = 1, duration: Double = 30, fps: Double? = nil, rig: RigConfig = .default,
    players: [PlayerConfig] = [PlayerConfig(height: 1.70), PlayerConfig(height: 1.82)],
    noise: DetectionNoise = DetectionNoise(), shotsPerRally: ClosedRange<Int> = 2...10,
    netProbability: Double = 0.15, pause: ClosedRange<Double> = 2...4, maxPhysicsStep: Double = 0.001
  ) {
    self.seed = seed
    self.duration = duration
    self.fps = fps
    self.rig = rig
    self.players = players
    self.noise = noise
    self.shotsPerRally = shotsPerRally
    self.netProbability = netProbability
    self.pause = pause
    self.maxPhysicsStep = maxPhysicsStep
  }

  /// Checks every setting before work starts. - Throws: `InputError` naming the setting.
  public func validate() throws {
    func fail(_ key: String, _ message: String) -> InputError {
      InputError(file: "simulation", location: .key(key), message)
    }
    guard duration.isFinite, duration > 0 else { throw fail("duration", "must be positive, got \(duration)") }
    if let fps, !(fps.isFinite && fps > 0) { throw fail("fps", "must be positive, got \(fps)") }
    guard players.count == 2 else { throw fail("players", "exactly 2 players are simulated, got \(players.count)") }
    for (i, p) in players.enumerated() where !(p.height >= 1.2 && p.height <= 2.3) {
      throw fail("players[\(i + 1)].height", "must lie in 1.2…2.3 m, got \(p.height)")
    }
    for (i, p) in players.enumerated() { try p.technique.validate(player: i) }
    guard shotsPerRally.lowerBound >= 1 else { throw fail("shots_per_rally", "must be at least 1") }
    guard netProbability >= 0, netProbability <= 1 else { throw fail("net_probability", "must lie in [0, 1]") }
    guard pause.lowerBound >= 1, pause.upperBound.isFinite else {
      throw fail("pause", "must be at least 1 s")
    }
    guard maxPhysicsStep > 0, maxPhysicsStep <= 0.01 else {
      throw fail("max_physics_step", "must lie in (0, 0.01] s, got \(maxPhysicsStep)")
    }
    try noise.validate()
    try rig.validate()
    try scoreRules.validate(file: "simulation")
    try gestures.validate()
    try unsync.validate()
    guard ballDragVariation >= 0, ballDragVariation < 1 else {
      throw fail("ball_drag_variation", "must lie in [0, 1), got \(ballDragVariation)")
    }
    guard ballSpin >= 0, ballSpin <= 400 else { throw fail("ball_spin", "must lie in [0, 400] rev/s, got \(ballSpin)") }
    guard earlyHitRate >= 0, earlyHitRate <= 1 else {
      throw fail("early_hit_rate", "must lie in [0, 1], got \(earlyHitRate)")
    }
  }
}
