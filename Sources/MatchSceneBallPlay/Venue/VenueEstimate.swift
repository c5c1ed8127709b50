import MatchSceneCore

/// Where the venue lies in the calibration's world, as `VenueLocator` estimated it from the ball.
public struct VenueEstimate: Sendable {
  /// `x_venue = rotation · x_world + translation`: z up, origin on the floor below the table's centre, x
  /// along the table's length (see `VenueFrame`).
  public var venueFromWorld: RigidTransform
  /// The centre of the table's top in the world, metres.
  public var tableCentre: SIMD3<Double>
  /// Up, in the world (unit), as estimated from the ball's flights (gravity).
  public var up: SIMD3<Double>
  /// Angle between the up hint and `up`, degrees.
  public var upHintAngle: Double
  /// Standard error of `up`'s direction, degrees.
  public var upSigma: Double
  /// The long axis (venue +x) in the world (unit). The ball cannot tell the two ends apart: of the two
  /// directions, the one nearer the world's x axis (`VenueFrame.headingReference`) is given.
  public var longAxis: SIMD3<Double>
  /// Degrees about `up` from `VenueFrame.headingReference(up:)` to `longAxis`, in (−90, 90].
  public var heading: Double
  /// Standard errors: the table centre across (x, y in the venue) and along up, metres; the heading, degrees.
  public var centreSigma: SIMD3<Double>
  public var headingSigma: Double
  /// Standard error of the table plane's height along up, metres.
  public var planeHeightSigma: Double
  /// Table bounces the estimate rests on, contacts at the net used for the net's place, and the
  /// flights used for gravity.
  public var tableBounces: Int
  public var netContacts: Int
  public var gravityFlights: Int
  /// Contacts found at floor height (floor bounces), and their mean height below the table top minus
  /// the table's nominal height (nil without floor bounces): a check of the table height, metres.
  public var floorBounces: Int
  public var floorHeightOffset: Double?
  /// Each source's residual, standard error and weight per parameter (`VenueFusion`).
  public var sources: [VenueSourceReport] = []

  /// The `[venue]` table of `match.toml` to paste, with the uncertainties in comments.
  public var tomlTable: String {
    func f(_ x: Double, _ digits: Int = 4) -> String {
      let s = String(format: "%.\(digits)f", x)
      return s == "-0.\(String(repeating: "0", count: digits))" ? String(s.dropFirst()) : s
    }
    func vector(_ v: SIMD3<Double>, _ digits: Int = 4) -> String { "[\(f(v.x, digits)), \(f(v.y, digits)), \(f(v.z, digits))]" }
    let origin = venueFromWorld.inverse.translation
    return """
      [venue]
      # located from \(tableBounces) table bounces, \(netContacts) net contact(s) and \(gravityFlights) flights (matchscene locate-venue)
      up = \(vector(up, 5))          # ± \(f(upSigma, 2))°, \(f(upHintAngle, 2))° from the hint
      origin = \(vector(origin))        # floor below the table's centre; table centre ± \(f(centreSigma.x * 100, 1)) cm along, ± \(f(centreSigma.y * 100, 1)) cm across, ± \(f(planeHeightSigma * 100, 1)) cm in height
      long_axis = \(vector(longAxis, 5))   # heading \(f(heading, 2))° ± \(f(headingSigma, 2))° (the ends cannot be told apart: add 180° to swap them)
      # heading = \(f(heading, 2))
      \(sourceLines)
      """
  }

  /// One comment line per source and parameter: its value minus the combined one, its standard
  /// error and its weight.
  public var sourceLines: String {
    sources.map { r in
      let unit = r.parameter == .heading ? "°" : " cm", scale = r.parameter == .heading ? 1.0 : 100.0
      let figures = String(format: "%+.2f|%.2f|%.1f", r.residual * scale, r.sigma * scale, 100 * r.weight).split(separator: "|")
      return "# \(r.source) \(r.parameter.rawValue): \(figures[0])\(unit) from the combined value, ± \(figures[1])\(unit), weight \(figures[2]) %\n"
    }.joined()
  }
}

import Foundation
