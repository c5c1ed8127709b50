import Foundation
import MatchSceneCore
import MatchSceneIO

/// Physical constants of a sport's ball, read from `Assets/sports/<sport>.toml`.
public struct BallSpec: Sendable, Equatable {
  public var radius: Double
  public var mass: Double
  public var dragCoefficient: Double
  public var airDensity: Double
  public var gravity: Double
  public var restitutionTable: Double
  public var restitutionFloor: Double
  public var tangentialKeepTable: Double
  public var tangentialKeepFloor: Double
  public var rollingDeceleration: Double
  public var restNormalSpeed: Double
  /// Magnus (lift per spin parameter) coefficient C_M: a spinning ball feels `k_M ω × v`,
  /// k_M = ρ C_M π r³ / 2m (`magnus_coefficient`, optional).
  public var magnusCoefficient: Double = 0.2
  /// Coulomb friction coefficient μ between ball and table top, for the bounce of a spinning ball
  /// (`friction_table`, optional).
  public var frictionTable: Double = 0.25

  /// Quadratic drag per unit speed², 1/m: `a_drag = −k |v| v`, `k = ρ C_d A / (2 m)`.
  public var dragPerMetre: Double { airDensity * dragCoefficient * Double.pi * radius * radius / (2 * mass) }
}

/// Dimensions of a venue (metres), read from `Assets/sports/<sport>.toml`.
public struct VenueSpec: Sendable, Equatable {
  /// `table` for table tennis; `court` for court sports; `floor` for a plain floor.
  public var kind: String
  /// Every numeric dimension of the `[venue]` table by key (e.g. `length`, `surface_height`).
  public var dimensions: [String: Double]
  /// Named RGB colours of the `[colors]` table, components in [0, 1].
  public var colors: [String: SIMD3<Double>]
  /// Painted lines of a `court` venue, from the `[markings]` table, sorted by name; empty when none.
  public var markings: [CourtMarking] = []

  /// A dimension by key. - Throws: `InputError` naming the asset file when missing.
  public func dimension(_ key: String, file: String = "venue") throws -> Double {
    guard let x = dimensions[key] else {
      throw InputError(file: file, location: .key("venue.\(key)"), "missing dimension")
    }
    return x
  }
}

/// One painted line of a court, in the sport file's world frame (metres, z up, origin at the centre of the
/// playing area): a `[markings.<name>]` table of the sport file. See `Assets/README.md`, "Court markings".
public struct CourtMarking: Sendable, Equatable {
  public enum Shape: Sendable, Equatable {
    /// The axis-aligned rectangle `x` × `y` on the floor.
    case strip(x: ClosedRange<Double>, y: ClosedRange<Double>)
    /// A ring sector about `center`: outer edge at `radius`, painted `width` inwards, from `degrees`
    /// lower to upper bound, counter-clockwise from +x.
    case arc(center: SIMD2<Double>, radius: Double, width: Double, degrees: ClosedRange<Double>)
  }

  public var name: String
  public var shape: Shape
  /// Also drawn reflected about the plane x = 0 (the other half of the court).
  public var mirrorX: Bool
  /// Also drawn reflected about the plane y = 0.
  public var mirrorY: Bool

  public init(name: String, shape: Shape, mirrorX: Bool = false, mirrorY: Bool = false) {
    self.name = name
    self.shape = shape
    self.mirrorX = mirrorX
    self.mirrorY = mirrorY
  }

  /// Reads `[markings.<name>]`: `shape = "strip"` (the default) with `x = [x0, x1]`, `y = [y0, y1]`
  /// (x0 < x1, y0 < y1), or `shape = "arc"` with `center = [x, y]`, `radius` > 0, 0 < `width` ≤ `radius`
  /// and `angles = [a0, a1]` in degrees (a0 < a1 ≤ a0 + 360); optional `mirror_x`, `mirror_y`.
  /// - Throws: `InputError` naming the key that is missing or out of range.
  init(name: String, table t: TOMLTableView) throws {
    self.name = name
    mirrorX = try t.bool("mirror_x") ?? false
    mirrorY = try t.bool("mirror_y") ?? false
    func range(_ key: String) throws -> ClosedRange<Double> {
      let r = try t.required(key) { try t.numbers($0, count: [2]) }
      guard r[0] < r[1] else { throw t.fail(key, "expected [low, high] with low < high") }
      return r[0]...r[1]
    }
    switch try t.string("shape") ?? "strip" {
    case "strip":
      shape = .strip(x: try range("x"), y: try range("y"))
    case "arc":
      let c = try t.required("center") { try t.numbers($0, count: [2]) }
      let radius = try t.requiredNumber("radius")
      let width = try t.requiredNumber("width")
      guard radius > 0 else { throw t.fail("radius", "must be > 0") }
      guard width > 0, width <= radius else { throw t.fail("width", "must be in (0, radius]") }
      let degrees = try range("angles")
      guard degrees.upperBound - degrees.lowerBound <= 360 else { throw t.fail("angles", "span more than 360°") }
      shape = .arc(center: SIMD2(c[0], c[1]), radius: radius, width: width, degrees: degrees)
    case let other:
      throw t.fail("shape", "'\(other)' is neither strip nor arc")
    }
  }
}

/// Everything MatchScene knows about a sport: ball, venue, default frame rate.
public struct SportSpec: Sendable, Equatable {
  public var id: String
  public var name: String
  public var defaultFPS: Double
  public var ball: BallSpec
  public var venue: VenueSpec

  /// Parses a sport file. - Throws: `InputError` naming the file and key.
  public init(contentsOf url: URL) throws {
    let doc = try TOMLDocument(contentsOf: url)
    let root = doc.rootView
    id = try root.required("sport", root.string)
    name = try root.string("name") ?? id
    defaultFPS = try root.number("default_fps") ?? 60
    guard let b = try root.subtable("ball") else {
      throw InputError(file: url.path, location: .key("ball"), "missing [ball] table")
    }
    ball = BallSpec(
      radius: try b.required("radius", b.number), mass: try b.required("mass", b.number),
      dragCoefficient: try b.required("drag_coefficient", b.number),
      airDensity: try b.number("air_density") ?? 1.204, gravity: try b.number("gravity") ?? 9.81,
      restitutionTable: try b.number("restitution_table") ?? 0,
      restitutionFloor: try b.required("restitution_floor", b.number),
      tangentialKeepTable: try b.number("tangential_keep_table") ?? 1,
      tangentialKeepFloor: try b.number("tangential_keep_floor") ?? 1,
      rollingDeceleration: try b.number("rolling_deceleration") ?? 0.3,
      restNormalSpeed: try b.number("rest_normal_speed") ?? 0.15)
    ball.magnusCoefficient = try b.number("magnus_coefficient") ?? ball.magnusCoefficient
    ball.frictionTable = try b.number("friction_table") ?? ball.frictionTable
    guard let v = try root.subtable("venue") else {
      throw InputError(file: url.path, location: .key("venue"), "missing [venue] table")
    }
    var dims: [String: Double] = [:]
    for key in v.keys where key != "kind" { dims[key] = try v.number(key) }
    var colors: [String: SIMD3<Double>] = [:]
    if let c = try root.subtable("colors") {
      for key in c.keys {
        let rgb = try c.numbers(key, count: [3])!
        colors[key] = SIMD3(rgb[0], rgb[1], rgb[2])
      }
    }
    venue = VenueSpec(kind: try v.string("kind") ?? "floor", dimensions: dims, colors: colors)
    if let m = try root.subtable("markings") {
      venue.markings = try m.keys.sorted().map { name in
        guard let table = try m.subtable(name) else { throw m.fail(name, "expected a table") }
        return try CourtMarking(name: name, table: table)
      }
    }
  }

  /// The built-in sport `id` from the package's `Assets/sports/`.
  /// - Throws: `InputError` listing the sports available when `id` is unknown. The error names the
  ///   setting (`sport`), not the asset path it was looked for at, which is the build's and means
  ///   nothing to the user; an id with a path in it is unknown too.
  public static func builtIn(_ id: String) throws -> SportSpec {
    let available = AssetCatalog.sports
    guard available.contains(id) else {
      throw InputError(
        file: "sport", "unknown sport '\(id)' (from --sport or match.toml's sport); available: \(available.joined(separator: ", "))")
    }
    return try SportSpec(contentsOf: AssetCatalog.sportsFolder.appendingPathComponent("\(id).toml"))
  }
}

/// Locates the files of `Assets/` at run time.
public enum AssetCatalog {
  /// `sports/` inside the resource bundle.
  public static var sportsFolder: URL { Bundle.module.resourceURL!.appendingPathComponent("sports") }
  /// `meshes/` inside the resource bundle.
  public static var meshesFolder: URL { Bundle.module.resourceURL!.appendingPathComponent("meshes") }
  /// Ids of the built-in sports.
  public static var sports: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sportsFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }.sorted()
  }
}
