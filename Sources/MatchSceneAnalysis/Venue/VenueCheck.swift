import MatchSceneCore

/// Whether the ball's bounces fit a table at an assumed place: lets `reconstruct` warn when no
/// `[venue]` is given and the calibration's world is not the venue frame.
public enum VenueCheck {
  /// Fewer bounces at table height than this leave the check undecided (it then passes).
  public static let minBounces = 3
  /// Share of the bounces at table height that must lie on the table's outline (with 5 cm slack).
  public static let minInsideShare = 0.8

  /// Checks the ball against a table at `venueFromWorld`.
  ///
  /// In the venue frame the ball's flights are fitted with gravity along −z (`FlightSegmentation`);
  /// the gravity they show must lie within 10° of −z (else up is wrong). Contacts where the vertical
  /// velocity turns from down to up with the horizontal direction kept are bounces; the table's plane
  /// among their heights (as `VenueLocator` finds it) must be the table's top (± 5 cm: a calibration
  /// whose origin lies on the table top fails here), and `minInsideShare` of the bounces at that
  /// height must lie on the table's outline. With fewer than `minBounces` bounces at one height the
  /// check cannot tell and passes, saying so.
  ///
  /// - Parameters:
  ///   - ball: the ball's positions by frame in the world.
  ///   - venueFromWorld: the assumed venue frame (identity: the world is the venue).
  ///   - table: the table, in venue coordinates as `EventDetector` takes it.
  ///   - fps: frames per second.
  /// - Returns: whether the bounces fit, and a sentence saying why (for a warning).
  public static func fits(
    ball: [Int: SIMD3<Double>], venueFromWorld: RigidTransform, table: TableGeometry, fps: Double,
    ballDrag: Double = VenueLocatorOptions().ballDrag
  ) -> (fits: Bool, message: String) {
    let finder = BallContactFinder(model: BallModel(gravity: SIMD3(0, 0, -9.81), drag: ballDrag))
    let venue = ball.mapValues { venueFromWorld.apply($0) }
    let flights = finder.flights(venue.map { (frame: $0.key, position: $0.value) }, fps: fps)
    if let g = BallContactFinder.gravity(flights, observations: venue, fps: fps) {
      let off = VenueLocator.angle(g.g, SIMD3(0, 0, -1)) * 180 / Double.pi
      if off > 10 {
        return (false, String(format: "the ball falls %.0f° away from the venue's −z: up is not z (give [venue] up in match.toml, or run matchscene locate-venue)", off))
      }
    }
    let bounces = finder.contacts(flights, fps: fps).filter { $0.kind == .bounce }
    let rest = table.surfaceHeight + table.ballRadius
    // The table's plane as the locator finds it: the densest bounce height (or the one the table's
    // height above it, when that was the floor).
    guard bounces.count >= minBounces, let plane = VenueLocator(table: table).tablePlane(bounces.map(\.position.z)),
      plane.count >= minBounces
    else {
      return (true, "\(bounces.count) bounce(s) of the ball, none \(minBounces) at one height: too few to check the venue against")
    }
    let atTable = bounces.filter { abs($0.position.z - rest) <= 0.05 }
    guard abs(plane.height - rest) <= 0.05 else {
      return (
        false,
        String(format: "the ball bounces most at %.2f m (%d bounces), not on a table top at %.2f m: the world is not the venue frame (give [venue] in match.toml, or run matchscene locate-venue)",
               plane.height, plane.count, rest)
      )
    }
    let slack = 0.05
    let inside = atTable.filter { abs($0.position.x) <= table.length / 2 + slack && abs($0.position.y) <= table.width / 2 + slack }
    let share = Double(inside.count) / Double(atTable.count)
    let message = String(
      format: "%d of %d bounces at the table's height lie on a table at the assumed place (%.0f %%)", inside.count, atTable.count,
      100 * share)
    if share >= minInsideShare { return (true, message) }
    return (false, message + ": the table is elsewhere (give [venue] in match.toml, or run matchscene locate-venue)")
  }
}

import Foundation
