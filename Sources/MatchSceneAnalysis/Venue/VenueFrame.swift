import MatchSceneCore

/// The venue frame of a table sport, built from an up direction, an origin and a long axis, all given
/// in the calibration's world (the `[venue]` table of `match.toml`):
///
/// - z = `up` (normalised),
/// - x = `longAxis` made orthogonal to up (Gram–Schmidt), the table's length, the net across it,
/// - y = z × x,
/// - `venueFromWorld`: `x_venue = R · x_world + t` with R's rows (x, y, z) and t = −R · origin.
public enum VenueFrame {
  /// `venueFromWorld` of the frame; nil when `up` is zero or `longAxis` is (nearly) parallel to it.
  public static func venueFromWorld(up: SIMD3<Double>, origin: SIMD3<Double>, longAxis: SIMD3<Double>) -> RigidTransform? {
    guard length(up) > 0 else { return nil }
    let z = normalize(up)
    let along = longAxis - dot(longAxis, z) * z
    guard length(along) > 1e-6 * max(1, length(longAxis)) else { return nil }
    let x = normalize(along)
    let y = cross(z, x)
    let rotation = Matrix3(rowMajor: [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z])
    return RigidTransform(rotation: rotation, translation: -(rotation * origin))
  }

  /// The world's x axis projected onto the plane across `up`: the zero of `heading`. When up is (nearly)
  /// the world's x axis, the world's y axis projected instead.
  public static func headingReference(up: SIMD3<Double>) -> SIMD3<Double> {
    let z = normalize(up)
    var reference = SIMD3<Double>(1, 0, 0)
    if abs(dot(reference, z)) > 0.9 { reference = SIMD3(0, 1, 0) }
    return normalize(reference - dot(reference, z) * z)
  }

  /// The long axis `heading` degrees about `up` (right-handed) from `headingReference(up:)`.
  public static func longAxis(up: SIMD3<Double>, heading degrees: Double) -> SIMD3<Double> {
    let z = normalize(up)
    let e1 = headingReference(up: z)
    let e2 = cross(z, e1)
    let a = degrees * Double.pi / 180
    return cos(a) * e1 + sin(a) * e2
  }

  /// A rotation whose third row is `up`: world → a provisional frame with z up and x along
  /// `headingReference(up:)`.
  static func levelling(up: SIMD3<Double>) -> Matrix3 {
    let z = normalize(up)
    let x = headingReference(up: z)
    let y = cross(z, x)
    return Matrix3(rowMajor: [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z])
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
