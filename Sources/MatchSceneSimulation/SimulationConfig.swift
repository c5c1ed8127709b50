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
  public init(height: Double, handedness: Handedness = .right) {
    self.height = height
    self.handedness = handedness
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
  }
}
