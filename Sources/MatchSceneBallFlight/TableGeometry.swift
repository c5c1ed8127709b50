import MatchSceneCore

/// Table geometry the event detector needs (metres, world z up, origin below the net's centre).
public struct TableGeometry: Sendable, Equatable {
  public var length: Double
  public var width: Double
  public var surfaceHeight: Double
  public var netHeight: Double
  public var ballRadius: Double
  public init(length: Double, width: Double, surfaceHeight: Double, netHeight: Double, ballRadius: Double) {
    self.length = length
    self.width = width
    self.surfaceHeight = surfaceHeight
    self.netHeight = netHeight
    self.ballRadius = ballRadius
  }
}
