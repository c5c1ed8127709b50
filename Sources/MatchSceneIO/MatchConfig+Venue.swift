import MatchSceneCore

/// `match.toml`'s `[venue]` and `[players]` tables.
///
/// ```toml
/// [venue]
/// up = [0, 0, 1]              # world direction of up; or an axis name "z", "-y", … (default: the file's `up`)
/// origin = [1.2, -0.4, 0.0]   # world point on the floor below the venue's centre (the table's centre), metres
/// long_axis = [0.87, 0.5, 0]  # world direction of the venue's long axis (the table's length; the net is across it)
/// # heading = 30.0            # instead of long_axis: degrees about up from the world x axis
/// ```
///
/// `matchscene locate-venue <out>` estimates the table and prints this table to paste.
extension MatchConfig {
  static let venueTableKeys: Set<String> = ["up", "origin", "long_axis", "heading"]

  /// Largest distance of the venue's origin from the world's origin accepted, metres.
  static let venueMaxDistance = 1e4

  static func venue(_ t: TOMLTableView, worldUp: SIMD3<Double>) throws -> VenueFrame {
    var up = worldUp
    if t.contains("up") {
      if let name = try? t.string("up") {
        guard let v = upVector(name) else { throw t.fail("up", "expected x, y, z, -x, -y, -z or [x, y, z], got '\(name)'") }
        up = v
      } else if let v = try t.numbers("up", count: [3]) {
        up = SIMD3(v[0], v[1], v[2])
        guard length(up) > 1e-9 else { throw t.fail("up", "must not be the zero vector") }
      }
    }
    guard let o = try t.numbers("origin", count: [3]) else {
      throw t.fail("origin", "missing: the world point on the floor below the venue's centre, [x, y, z] in metres")
    }
    let origin = SIMD3(o[0], o[1], o[2])
    guard length(origin) <= venueMaxDistance else {
      throw t.fail("origin", "is \(length(origin)) m from the world's origin; expected at most \(venueMaxDistance) m")
    }
    let axis = try t.numbers("long_axis", count: [3])
    let heading = try t.number("heading")
    switch (axis, heading) {
    case (let a?, nil):
      guard let frame = VenueFrame(up: up, origin: origin, longAxis: SIMD3(a[0], a[1], a[2])) else {
        throw t.fail("long_axis", "must be a non-zero direction not parallel to up")
      }
      return frame
    case (nil, let h?):
      guard let frame = VenueFrame(up: up, origin: origin, headingDegrees: h) else {
        throw t.fail("heading", "must be a finite angle in degrees")
      }
      return frame
    case (nil, nil):
      throw t.fail("long_axis", "missing: give long_axis = [x, y, z] (the table's length direction) or heading = degrees")
    case (_?, _?):
      throw t.fail("heading", "give either long_axis or heading, not both")
    }
  }

  static func players(_ t: TOMLTableView) throws -> [String: String] {
    var out: [String: String] = [:]
    for key in t.keys {
      guard let name = try t.string(key), !name.isEmpty else { throw t.fail(key, "expected a non-empty name") }
      out[key] = name
    }
    return out
  }

  /// The `[venue]` table of `venue`, with up, origin and long axis written out (round-trip precision),
  /// each line of `comment` as a comment under the header.
  public static func renderVenueTable(_ venue: VenueFrame, comment: String? = nil) -> String {
    func vector(_ v: SIMD3<Double>) -> String {
      "[" + [v.x, v.y, v.z].map { CalibrationTOML.tomlNumber($0) }.joined(separator: ", ") + "]"
    }
    var out = "[venue]\n"
    if let comment { out += comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)\n" }.joined() }
    out += "up = \(vector(venue.up))\n"
    out += "origin = \(vector(venue.origin))\n"
    out += "long_axis = \(vector(venue.longAxis))\n"
    return out
  }
}
