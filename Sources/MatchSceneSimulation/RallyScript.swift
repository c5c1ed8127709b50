import MatchSceneCore

/// A stroke the simulation decided on: when, by whom, and where the body must be.
struct PlannedHit: Sendable {
  var time: Double
  var player: Int
  var stroke: Stroke
  var ball: SIMD3<Double>
  var placement: ContactPlacement
}

/// A serve: the server takes the stance, holds the ball still on the open free hand, tosses it, and
/// strikes it (the strike itself is also a `PlannedHit`).
struct PlannedServe: Sendable {
  var player: Int
  var holdTime: Double
  var tossTime: Double
  var contactTime: Double
  var stance: ContactPlacement
  /// Free-hand wrist while holding the ball.
  var holdWrist: SIMD3<Double>
}

/// The ball's story of a match, written by `RallySimulator`: its position at every frame (nil when
/// absent), the true events, and the strokes and serves the players' bodies must perform.
struct RallyScript: Sendable {
  var ball: [SIMD3<Double>?]
  var events: [MatchEvent] = []
  var hits: [PlannedHit] = []
  var serves: [PlannedServe] = []
  /// Time of each rally's end (ball at rest, gone, or the match over).
  var rallyEnds: [Double] = []
  /// True `ball_at_rest` events (held on the palm before a serve, lying still after a rally).
  var rests: [MatchEvent] = []
  /// Hand raises and other arm gestures between rallies.
  var gestures: [SimulatedGesture] = []
  /// True `claim` events of the claim gestures.
  var claims: [MatchEvent] = []
  /// The ball's spin from each stroke and contact on (`SimulatedBallTruth`).
  var spins: [SimulatedSpinSegment] = []
}
