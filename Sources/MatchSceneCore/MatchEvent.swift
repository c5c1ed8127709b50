/// A moment of the match: a bounce, a hit, the ball in the net, a rally's start or end, a point and the
/// score after it, a player's hand-raise claim, a body part or the ball entering or leaving a zone, the
/// ball coming to rest. Written to `events.json`, and by `matchscene simulate` as ground truth.
/// Fields that do not apply to a kind are absent from the JSON.
public struct MatchEvent: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable, CaseIterable {
    case bounce, hit, net
    case rallyStart = "rally_start"
    case rallyEnd = "rally_end"
    /// A point won: `track` is the winner, `reason` why, `score`/`games`/`server` the state after it.
    case point
    /// A player held the non-dominant hand up to claim the point: `track` the claimer, `hand` which.
    case claim
    /// `joint` of `track` (or the ball) entered / left `zone`; `speed` its speed then.
    case zoneEnter = "zone_enter"
    case zoneExit = "zone_exit"
    /// The ball stayed within a small radius for the hold time; `time` is when it came to rest.
    case ballAtRest = "ball_at_rest"
  }
  public var type: Kind
  public var frame: Int
  public var time: Double
  /// The player involved (the hitter, the server), if any.
  public var track: String?
  /// Where it happened, metres, world frame (written as `[x, y, z]`).
  public var position: SIMD3<Double>?
  /// Speed in m/s: of the ball after a hit or bounce; of the joint (or ball) for zone events.
  public var speed: Double?
  /// For bounces: what the ball bounced on.
  public var surface: BounceSurface?
  /// For table bounces: which half.
  public var side: TableSide?
  /// 1-based rally number.
  public var rally: Int?
  /// For points: why the point ended.
  public var reason: PointReason?
  /// For points: points per track in the current game after this point.
  public var score: [String: Int]?
  /// For points: games per track after this point.
  public var games: [String: Int]?
  /// For points: the track to serve next.
  public var server: String?
  /// For claims: the hand held up.
  public var hand: BodyHand?
  /// For zone events: the zone's name.
  public var zone: String?
  /// For zone events: the joint that triggered it, or `ball`.
  public var joint: String?
  /// Seconds: for `ball_at_rest`, how long the ball stayed at rest; for `zone_exit`, how long it was inside.
  public var duration: Double?
  /// For hits and bounces: the spin of the flight that follows, when it showed spin (`BallSpin`).
  public var spin: BallSpin?

  public init(
    type: Kind, frame: Int, time: Double, track: String? = nil, position: SIMD3<Double>? = nil,
    speed: Double? = nil, surface: BounceSurface? = nil, side: TableSide? = nil, rally: Int? = nil
  ) {
    self.type = type
    self.frame = frame
    self.time = time
    self.track = track
    self.position = position
    self.speed = speed
    self.surface = surface
    self.side = side
    self.rally = rally
  }
}

/// What a ball bounced on (`bounce` events' `surface`).
public enum BounceSurface: String, Sendable, Codable, CaseIterable {
  case table, floor
}

/// A half of the table, by the sign of venue x (`bounce` events' `side`, the players' ends in `score.json`).
public enum TableSide: String, Sendable, Codable, CaseIterable {
  case negativeX = "negative_x"
  case positiveX = "positive_x"

  /// The half of venue x-coordinate `x` (0 counts as positive).
  public init(x: Double) { self = x < 0 ? .negativeX : .positiveX }

  /// The other half.
  public var other: TableSide { self == .negativeX ? .positiveX : .negativeX }
}

/// A hand, left or right (`claim` events' `hand`).
public enum BodyHand: String, Sendable, Codable, CaseIterable {
  case left, right
}

extension MatchEvent {
  /// The event with its position mapped by `transform` (e.g. `worldFromVenue`).
  public func transformed(by transform: RigidTransform) -> MatchEvent {
    var e = self
    e.position = position.map(transform.apply)
    return e
  }
}

/// The spin of the ball's flight that starts at a hit or bounce (`spin` of `hit` and `bounce` events),
/// rev/s, in the venue frame (z up) relative to the flight's horizontal direction: topspin (negative:
/// backspin) turns about the horizontal axis across the flight, the top of the ball moving forward;
/// sidespin turns about the vertical, positive counter-clockwise seen from above (the flight bends
/// left). Absent when the flight showed no spin above its noise.
public struct BallSpin: Sendable, Equatable, Codable {
  /// Topspin, rev/s (negative: backspin).
  public var topspin: Double
  /// Sidespin, rev/s (positive: counter-clockwise seen from above).
  public var sidespin: Double
  /// Standard uncertainty (1σ) of each component, rev/s.
  public var uncertainty: Double
  public init(topspin: Double, sidespin: Double, uncertainty: Double) {
    self.topspin = topspin
    self.sidespin = sidespin
    self.uncertainty = uncertainty
  }
}
