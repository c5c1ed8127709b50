import Foundation

extension SimulatedMatch {
  /// `truth/players.json`: each simulated player's track, standing height, hand and the lengths of the
  /// bones the simulator gave them (`BodyDimensions`), metres — what `sessions add` should recognise a
  /// player by.
  public func playersTruthJSON() throws -> Data {
    struct Player: Encodable {
      var track: String
      var height: Double
      var handedness: String
      var thigh: Double, shank: Double, upperArm: Double, forearm: Double
      var hipWidth: Double, shoulderWidth: Double, spine: Double
    }
    let players = config.players.enumerated().map { i, p in
      let body = BodyDimensions(height: p.height)
      return Player(
        track: "P\(i + 1)", height: p.height, handedness: p.handedness.rawValue, thigh: body.thigh, shank: body.shank,
        upperArm: body.upperArm, forearm: body.forearm, hipWidth: 2 * body.hipHalfWidth,
        shoulderWidth: 2 * body.shoulderHalfWidth, spine: body.spine)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(players)
  }
}
