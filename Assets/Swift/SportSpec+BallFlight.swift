import MatchSceneBallFlight
import MatchSceneCore

extension SportSpec {
  /// The table geometry the event detector needs, from the venue's dimensions; nil for a sport
  /// without a table (`[venue] kind` other than `table`).
  public func tableGeometry() throws -> TableGeometry? {
    guard venue.kind == "table" else { return nil }
    return TableGeometry(
      length: try venue.dimension("length"), width: try venue.dimension("width"),
      surfaceHeight: try venue.dimension("surface_height"), netHeight: try venue.dimension("net_height"),
      ballRadius: ball.radius)
  }

  /// The ball's flight model (gravity along −z of the venue frame, quadratic drag, the Magnus constant;
  /// no spin).
  public var ballModel: BallModel {
    BallModel(
      gravity: SIMD3(0, 0, -ball.gravity), drag: ball.dragPerMetre,
      magnus: BallModel.magnusConstant(coefficient: ball.magnusCoefficient, airDensity: ball.airDensity, radius: ball.radius, mass: ball.mass))
  }

  /// The venue's half length and half width (the table's, the court's), metres; nil when the venue has
  /// no `length` and `width` (a plain floor).
  public var venueArea: (halfLength: Double, halfWidth: Double)? {
    guard let length = try? venue.dimension("length"), let width = try? venue.dimension("width") else { return nil }
    return (length / 2, width / 2)
  }
}
