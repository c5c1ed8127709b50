#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The venue's own coordinate frame, in which the analysis works: z up, the origin on the floor below
/// the venue's centre (the table's centre, the court's centre), x along the venue's long axis (the
/// table's length: the net lies in the plane x = 0), y = z × x. Metres.
///
/// A calibration puts its world origin wherever the checkerboard lay; `venueFromWorld` maps world
/// points into the venue (`x_venue = R · x_world + t`). It comes from `match.toml`'s `[venue]` table,
/// from `matchscene locate-venue`, or — when neither is given — from the assumption that the world is
/// the venue up to its up axis (`assumed(worldUp:)`).
public struct VenueFrame: Sendable, Equatable {
  /// Where the frame came from.
  public enum Source: String, Sendable, Codable {
    /// The world is taken as the venue (only its up axis turned to z): nothing said otherwise.
    case assumed
    /// `match.toml`'s `[venue]` table (or a caller).
    case given
    /// Estimated from the reconstruction (`locate-venue`).
    case estimated
  }

  public var venueFromWorld: RigidTransform
  public var source: Source

  public init(venueFromWorld: RigidTransform, source: Source) {
    self.venueFromWorld = venueFromWorld
    self.source = source
  }

  public var worldFromVenue: RigidTransform { venueFromWorld.inverse }

  /// The venue's up direction in world coordinates.
  public var up: SIMD3<Double> { venueFromWorld.rotation.row(2) }
  /// The venue's long axis (+x) in world coordinates.
  public var longAxis: SIMD3<Double> { venueFromWorld.rotation.row(0) }
  /// The venue's origin in world coordinates.
  public var origin: SIMD3<Double> { worldFromVenue.translation }

  /// The frame with z = `up`, x = `longAxis` made orthogonal to up, origin `origin` (world coordinates).
  /// Nil when `up` is not a finite non-zero vector or `longAxis` is (nearly) parallel to it.
  public init?(up: SIMD3<Double>, origin: SIMD3<Double>, longAxis: SIMD3<Double>, source: Source = .given) {
    let upLength = (up * up).sum().squareRoot()
    guard upLength.isFinite, upLength > 0, origin.x.isFinite, origin.y.isFinite, origin.z.isFinite else { return nil }
    let z = up / upLength
    let along = longAxis - z * (longAxis * z).sum()
    let alongLength = (along * along).sum().squareRoot()
    guard alongLength.isFinite, alongLength > 1e-6 * max(1, (longAxis * longAxis).sum().squareRoot()) else { return nil }
    let x = along / alongLength
    let y = SIMD3(z.y * x.z - z.z * x.y, z.z * x.x - z.x * x.z, z.x * x.y - z.y * x.x)
    let rotation = Matrix3(rows: x, y, z)
    self.init(venueFromWorld: RigidTransform(rotation: rotation, translation: -(rotation * origin)), source: source)
  }

  /// The frame whose long axis is `headingDegrees` about `up` from `headingReference(up:)`.
  public init?(up: SIMD3<Double>, origin: SIMD3<Double>, headingDegrees: Double, source: Source = .given) {
    guard headingDegrees.isFinite, length(up) > 0 else { return nil }
    self.init(up: up, origin: origin, longAxis: Self.longAxis(up: up, heading: headingDegrees), source: source)
  }

  /// The venue's heading: degrees about up from `headingReference(up:)` to its long axis, in (−180, 180].
  public var headingDegrees: Double {
    let e1 = Self.headingReference(up: up), e2 = cross(normalize(up), e1)
    return atan2(dot(longAxis, e2), dot(longAxis, e1)) * 180 / .pi
  }

  /// `venueFromWorld` of the frame with z = `up`, x = `longAxis` made orthogonal to up (Gram–Schmidt),
  /// y = z × x and the origin at `origin`; nil when `up` is zero or `longAxis` (nearly) parallel to it.
  public static func venueFromWorld(up: SIMD3<Double>, origin: SIMD3<Double>, longAxis: SIMD3<Double>) -> RigidTransform? {
    VenueFrame(up: up, origin: origin, longAxis: longAxis)?.venueFromWorld
  }

  /// The world's x axis projected onto the plane across `up`: where headings start. When up is (nearly)
  /// the world's x axis, the world's y axis projected instead.
  public static func headingReference(up: SIMD3<Double>) -> SIMD3<Double> {
    let z = normalize(up)
    var reference = SIMD3<Double>(1, 0, 0)
    if abs(dot(reference, z)) > 0.9 { reference = SIMD3(0, 1, 0) }
    return normalize(reference - dot(reference, z) * z)
  }

  /// The direction `degrees` about `up` (right-handed) from `headingReference(up:)`.
  public static func longAxis(up: SIMD3<Double>, heading degrees: Double) -> SIMD3<Double> {
    let z = normalize(up)
    let e1 = headingReference(up: z)
    let e2 = cross(z, e1)
    let a = degrees * Double.pi / 180
    return cos(a) * e1 + sin(a) * e2
  }

  /// A rotation whose third row is `up`: world → a level frame with z up and x along
  /// `headingReference(up:)`.
  public static func levelling(up: SIMD3<Double>) -> Matrix3 {
    let z = normalize(up)
    let x = headingReference(up: z)
    return Matrix3(rows: x, cross(z, x), z)
  }

  /// What holds when nothing says where the venue is: the world's origin and axes are the venue's, up
  /// to turning `worldUp` onto z (the smallest rotation that does; none for a z-up world).
  public static func assumed(worldUp: SIMD3<Double>) -> VenueFrame {
    let z = SIMD3<Double>(0, 0, 1)
    let up = worldUp / (worldUp * worldUp).sum().squareRoot()
    let rotation = (up - z).isZeroish ? Matrix3.identity : Matrix3.rotation(from: up, to: z)
    return VenueFrame(venueFromWorld: RigidTransform(rotation: rotation, translation: .zero), source: .assumed)
  }

  /// Whether the frame maps the world unchanged (no need to transform anything).
  public var isIdentity: Bool { venueFromWorld == .identity }
}

extension SIMD3 where Scalar == Double {
  fileprivate var isZeroish: Bool { abs(x) < 1e-15 && abs(y) < 1e-15 && abs(z) < 1e-15 }
}
