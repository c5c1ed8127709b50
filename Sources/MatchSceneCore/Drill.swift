/// A drill: targets (zones) to touch with the ball or a hand, in a given order or any order, within a
/// time limit, and how hits score. `drill.toml` holds one; `DrillScorer` scores a recording against it.
public struct Drill: Sendable, Equatable {
  /// In what order targets must be touched.
  public enum Order: String, Sendable, CaseIterable {
    /// Any target at any time.
    case any
    /// The targets in the order listed, starting again after the last; a touch of another target
    /// does not count.
    case sequence
  }

  /// How hits become the score.
  public enum Scoring: String, Sendable, CaseIterable {
    /// Every counted hit scores its target's points.
    case hits
    /// Each target scores its points once, however often it is hit.
    case targets
  }

  public var name: String
  /// The targets, their triggers set to what must touch them.
  public var targets: [Zone]
  /// Points per target, in `targets` order.
  public var points: [Double]
  public var order: Order
  public var scoring: Scoring
  /// Match time the drill starts, seconds; nil: the recording's first frame.
  public var start: Double?
  /// Seconds from the start within which hits count; nil: no limit.
  public var timeLimit: Double?
  /// Only this person's touches count (nil: anyone's).
  public var track: String?

  public init(
    name: String, targets: [Zone], points: [Double]? = nil, order: Order = .any, scoring: Scoring = .hits,
    start: Double? = nil, timeLimit: Double? = nil, track: String? = nil
  ) {
    self.name = name
    self.targets = targets
    self.points = points ?? Array(repeating: 1, count: targets.count)
    self.order = order
    self.scoring = scoring
    self.start = start
    self.timeLimit = timeLimit
    self.track = track
  }
}

/// One counted touch of a drill's target.
public struct DrillHit: Sendable, Equatable, Codable {
  public var target: String
  public var frame: Int
  /// Match time, seconds.
  public var time: Double
  /// The person who touched (or `ball`).
  public var track: String
  /// The keypoint that touched, or `ball`.
  public var joint: String
  /// Points this hit scored (0 for a repeat under `targets` scoring).
  public var points: Double

  public init(target: String, frame: Int, time: Double, track: String, joint: String, points: Double) {
    self.target = target
    self.frame = frame
    self.time = time
    self.track = track
    self.joint = joint
    self.points = points
  }
}

/// A drill's outcome: `drill.json`.
public struct DrillResult: Sendable, Equatable, Codable {
  public struct TargetCount: Sendable, Equatable, Codable {
    public var name: String
    public var hits: Int
    public init(name: String, hits: Int) {
      self.name = name
      self.hits = hits
    }
  }
  public var drill: String
  public var score: Double
  /// Every target with its counted hits, in the drill's order.
  public var targets: [TargetCount]
  /// Counted hits in time order.
  public var hits: [DrillHit]
  /// The window scored, match seconds.
  public var start: Double
  public var end: Double

  public init(drill: String, score: Double, targets: [TargetCount], hits: [DrillHit], start: Double, end: Double) {
    self.drill = drill
    self.score = score
    self.targets = targets
    self.hits = hits
    self.start = start
    self.end = end
  }
}
