/// A moment of the match: a bounce, a hit, the ball in the net, a rally's start or end.
/// Written to `events.json`, and by `matchscene simulate` as ground truth.
public struct MatchEvent: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable, CaseIterable {
    case bounce, hit, net
    case rallyStart = "rally_start"
    case rallyEnd = "rally_end"
  }
  public var type: Kind
  public var frame: Int
  public var time: Double
  /// The player involved (the hitter, the server), if any.
  public var track: String?
  /// Where it happened, metres, world frame.
  public var position: [Double]?
  /// Ball speed in m/s (after a hit or bounce), if known.
  public var speed: Double?
  /// For bounces: `table` or `floor`.
  public var surface: String?
  /// For table bounces: which half (`negative_x` or `positive_x`).
  public var side: String?
  /// 1-based rally number.
  public var rally: Int?

  public init(
    type: Kind, frame: Int, time: Double, track: String? = nil, position: SIMD3<Double>? = nil,
    speed: Double? = nil, surface: String? = nil, side: String? = nil, rally: Int? = nil
  ) {
    self.type = type
    self.frame = frame
    self.time = time
    self.track = track
    self.position = position.map { [$0.x, $0.y, $0.z] }
    self.speed = speed
    self.surface = surface
    self.side = side
    self.rally = rally
  }
}

extension MatchEvent {
  /// The event with its position mapped by `transform` (e.g. `worldFromVenue`).
  public func transformed(by transform: RigidTransform) -> MatchEvent {
    var e = self
    if let p = position, p.count == 3 {
      let q = transform.apply(SIMD3(p[0], p[1], p[2]))
      e.position = [q.x, q.y, q.z]
    }
    return e
  }
}
