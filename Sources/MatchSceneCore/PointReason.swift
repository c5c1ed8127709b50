/// Why a point was won, as `point` events give it in `reason`.
public enum PointReason: String, Sendable, Codable, CaseIterable {
  /// The last stroke went into the net (and did not reach the opponent's half).
  case net
  /// The serve did not bounce on the server's half and then the receiver's (ITTF 2.6.3).
  case badServe = "bad_serve"
  /// The last stroke did not land on the opponent's half: floor, out of the area, or back on the
  /// hitter's own half (ITTF 2.10.1.4–5).
  case offTable = "off_table"
  /// The ball bounced twice on the opponent's half (ITTF 2.10.1.3 applied to the receiver).
  case doubleBounce = "double_bounce"
  /// A good stroke the opponent did not return (the ball went to the floor, came to rest or was lost).
  case missedReturn = "missed_return"
  /// The point was given by a player's hand-raise claim (`claim` events), not by the ball's play.
  case claim
}
