import Foundation

/// A stroke the simulated players truly played: who, which kind, when the racket met the ball, with
/// which hand. Written by `matchscene simulate` as `truth/strokes.json`.
public struct SimulatedStroke: Sendable, Equatable, Codable {
  /// The player's track id, `P1` or `P2`.
  public var track: String
  /// `serve`, `forehand` or `backhand`.
  public var kind: String
  /// The frame nearest the contact, and the contact time, seconds.
  public var contactFrame: Int
  public var contactTime: Double
  /// `right` or `left`: the racket hand.
  public var hand: String
  /// The technique error put into this stroke (`Technique.deviations`), absent for a normal stroke.
  public var deviation: StrokeDeviation? = nil

  /// `truth/strokes.json`: the strokes in time order, pretty-printed with sorted keys.
  public static func jsonData(_ strokes: [SimulatedStroke]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(strokes)
  }
}

extension SimulatedStroke {
  init(_ hit: PlannedHit, players: [PlayerGeometry], fps: Double) {
    let player = players[hit.player]
    let kind: String =
      switch hit.stroke {
      case .serve: "serve"
      case .forehand: "forehand"
      case .backhand: "backhand"
      }
    self.init(
      track: player.id, kind: kind, contactFrame: Int((hit.time * fps).rounded()), contactTime: hit.time, hand: player.handedness.rawValue)
  }
}
