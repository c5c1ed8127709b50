import MatchSceneAnalysis
import MatchSceneAssets

extension SportSpec {
  /// The table geometry the event detector needs, from the venue's dimensions; nil for a sport
  /// without a table (`[venue] kind` other than `table`).
  func tableGeometry() throws -> TableGeometry? {
    guard venue.kind == "table" else { return nil }
    return TableGeometry(
      length: try venue.dimension("length"), width: try venue.dimension("width"),
      surfaceHeight: try venue.dimension("surface_height"), netHeight: try venue.dimension("net_height"),
      ballRadius: ball.radius)
  }

  /// The ball's flight model (gravity along −z of the world, quadratic drag).
  var ballModel: BallModel { BallModel(gravity: SIMD3(0, 0, -ball.gravity), drag: ball.dragPerMetre) }
}

import ArgumentParser
extension SmoothingMethod: ExpressibleByArgument {}
