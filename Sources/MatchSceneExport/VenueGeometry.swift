import MatchSceneAssets
import MatchSceneCore

/// One coloured part of the generated venue.
struct VenuePart {
  var name: String
  /// Key of the sport's `[colors]` table.
  var colorKey: String
  var mesh: TriangleMesh
  var doubleSided: Bool
}

/// Low-poly venue geometry generated from a sport's `[venue]` dimensions, in the sport file's world
/// frame: z up, origin on the floor below the centre of the playing area (the net), x along the table or
/// court's length (metres).
enum VenueGeometry {
  /// Height of the painted lines above the table top: a rendering offset so that the lines do not
  /// z-fight with the top, not a venue dimension.
  static let markingLift = 0.001

  /// The parts of the venue of `sport`, by `[venue] kind`:
  /// - `table` (table tennis, ITTF rules 2.1–2.2): the floor, the top, its white edge and centre lines,
  ///   the net and four legs (`tableParts`).
  /// - `court` (tennis, badminton, volleyball, basketball…): the floor, the court, its lines, and the
  ///   net with its posts and the baskets where the sport file has them (`courtParts`, in
  ///   VenueGeometry+Court.swift).
  /// - any other kind (`floor`): only the floor, when `floor_length` and `floor_width` are given.
  ///
  /// The floor is a quad `floor_length` × `floor_width` at z = 0.
  /// - Throws: `InputError` naming the missing or negative dimension, or the missing colour.
  static func parts(of sport: SportSpec) throws -> [VenuePart] {
    let venue = sport.venue
    let read = Reader(sport: sport)
    var parts: [VenuePart] = []
    if venue.dimensions["floor_length"] != nil || venue.kind == "table" || venue.kind == "court" {
      let fl = try read.dim("floor_length") / 2
      let fw = try read.dim("floor_width") / 2
      parts.append(
        VenuePart(
          name: "floor", colorKey: try read.color("floor"),
          mesh: .quad(SIMD3(-fl, -fw, 0), SIMD3(fl, -fw, 0), SIMD3(fl, fw, 0), SIMD3(-fl, fw, 0)), doubleSided: false))
    }
    switch venue.kind {
    case "table": return parts + (try tableParts(read))
    case "court": return parts + (try courtParts(read))
    default: return parts
    }
  }

  /// Located look-ups of a sport's `[venue]` dimensions and `[colors]`.
  struct Reader {
    let sport: SportSpec
    var file: String { "sports/\(sport.id).toml" }

    /// A dimension, finite and ≥ 0. - Throws: `InputError` when missing or out of range.
    func dim(_ key: String) throws -> Double {
      let x = try sport.venue.dimension(key, file: file)
      guard x.isFinite, x >= 0 else { throw InputError(file: file, location: .key("venue.\(key)"), "must be ≥ 0") }
      return x
    }

    /// An optional dimension: nil when absent. - Throws: `InputError` when present but negative.
    func optionalDim(_ key: String) throws -> Double? {
      sport.venue.dimensions[key] == nil ? nil : try dim(key)
    }

    /// `key` when `[colors]` has it. - Throws: `InputError` when it does not.
    func color(_ key: String) throws -> String {
      guard sport.venue.colors[key] != nil else {
        throw InputError(file: file, location: .key("colors.\(key)"), "missing colour")
      }
      return key
    }
  }

  /// The table tennis table (ITTF rules 2.1–2.2): top, lines, net and legs. Every size comes from
  /// `[venue]`: `length`, `width`, `surface_height`, `top_thickness`, `leg_inset`, `line_width`,
  /// `net_height`, `net_overhang`. The legs are square posts of side 2 × `top_thickness`, inset by
  /// `leg_inset` from the ends and the sides.
  /// - Throws: `InputError` naming the missing dimension or colour.
  static func tableParts(_ read: Reader) throws -> [VenuePart] {
    func dim(_ key: String) throws -> Double { try read.dim(key) }
    func color(_ key: String) throws -> String { try read.color(key) }
    var parts: [VenuePart] = []
    let halfLength = try dim("length") / 2
    let halfWidth = try dim("width") / 2
    let top = try dim("surface_height")
    let thickness = try dim("top_thickness")
    let inset = try dim("leg_inset")
    let line = try dim("line_width")
    let netHeight = try dim("net_height")
    let overhang = try dim("net_overhang")

    parts.append(
      VenuePart(
        name: "table", colorKey: try color("table"),
        mesh: .box(from: SIMD3(-halfLength, -halfWidth, top - thickness), to: SIMD3(halfLength, halfWidth, top)),
        doubleSided: false))

    // Lines (rule 2.1.5–2.1.6): two side lines, two end lines, the centre line; flat quads on the top.
    let z = top + markingLift
    func strip(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> TriangleMesh {
      .quad(SIMD3(x0, y0, z), SIMD3(x1, y0, z), SIMD3(x1, y1, z), SIMD3(x0, y1, z))
    }
    var lines = TriangleMesh()
    lines.append(strip(-halfLength, halfWidth - line, halfLength, halfWidth))
    lines.append(strip(-halfLength, -halfWidth, halfLength, -halfWidth + line))
    lines.append(strip(-halfLength, -halfWidth, -halfLength + line, halfWidth))
    lines.append(strip(halfLength - line, -halfWidth, halfLength, halfWidth))
    lines.append(strip(-halfLength, -line / 2, halfLength, line / 2))
    parts.append(VenuePart(name: "lines", colorKey: try color("lines"), mesh: lines, doubleSided: false))

    // Net (rule 2.2): a vertical sheet across the table at x = 0, posts `net_overhang` outside the sides.
    let netHalf = halfWidth + overhang
    parts.append(
      VenuePart(
        name: "net", colorKey: try color("net"),
        mesh: .quad(
          SIMD3(0, -netHalf, top), SIMD3(0, netHalf, top), SIMD3(0, netHalf, top + netHeight),
          SIMD3(0, -netHalf, top + netHeight)),
        doubleSided: true))

    // Legs: square posts from the floor to the underside of the top.
    let halfSide = thickness
    var legs = TriangleMesh()
    for sx in [-1.0, 1.0] {
      for sy in [-1.0, 1.0] {
        let c = SIMD3(sx * (halfLength - inset), sy * (halfWidth - inset), 0)
        legs.append(
          .box(from: c - SIMD3(halfSide, halfSide, 0), to: c + SIMD3(halfSide, halfSide, top - thickness)))
      }
    }
    parts.append(VenuePart(name: "legs", colorKey: try color("legs"), mesh: legs, doubleSided: false))
    return parts
  }
}
