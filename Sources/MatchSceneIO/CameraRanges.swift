import MatchSceneCore

/// The ranges a calibrated camera's numbers must lie in, checked by every calibration reader so that
/// a value the projection cannot use (a denormal focal length, a translation of 1e308, a Rodrigues
/// vector whose norm overflows) is an error naming the file and key, with the range accepted.
enum CameraRanges {
  /// Focal lengths fx, fy in pixels.
  static let focal: ClosedRange<Double> = 1...1e6
  /// |cx|, |cy| and |skew| in pixels.
  static let maxPrincipal = 1e6
  /// |k| of every distortion coefficient.
  static let maxDistortion = 1e4
  /// |t| of each translation component, metres.
  static let maxTranslation = 1e4
  /// The norm of a Rodrigues vector, radians (a rotation needs at most π; writers stay below 2π).
  static let maxRotationAngle = 100.0

  /// |x|, |y| of a detection in pixels (a camera of a million pixels across is far off).
  static let maxPixel = 1e6
  /// `±1000000 px`, for messages.
  static let pixelRange = "±1000000 px"

  /// Whether `x` is a usable pixel coordinate (within ±`maxPixel`; NaN is not).
  static func isPixel(_ x: Double) -> Bool { abs(x) <= maxPixel }

  /// The part of a calibration a range error is about; each reader maps it to its key.
  enum Part { case intrinsics, distortion, rotation, translation }

  /// Checks a camera's intrinsics, distortion and translation.
  /// - Throws: the error `fail` makes for the first part out of range, with a message saying the value and the range.
  static func check(_ c: Camera, fail: (Part, String) -> InputError) throws {
    for (name, f) in [("fx", c.fx), ("fy", c.fy)] where !focal.contains(f) {
      throw fail(.intrinsics, "intrinsics out of range: focal length \(name) = \(f) px; accepted 1–1000000 px")
    }
    for (name, x) in [("cx", c.cx), ("cy", c.cy), ("skew", c.skew)] where !(abs(x) <= maxPrincipal) {
      throw fail(.intrinsics, "intrinsics out of range: \(name) = \(x) px; accepted |\(name)| ≤ 1000000 px")
    }
    for (i, k) in c.distortion.enumerated() where !(abs(k) <= maxDistortion) {
      throw fail(.distortion, "distortion coefficient \(i + 1) = \(k) out of range; accepted |k| ≤ 10000")
    }
    let t = c.camFromWorld.translation
    for (axis, x) in zip(["x", "y", "z"], [t.x, t.y, t.z]) where !(abs(x) <= maxTranslation) {
      throw fail(.translation, "extrinsics out of range: translation \(axis) = \(x) m; accepted |t| ≤ 10000 m per component")
    }
  }

  /// Checks a Rodrigues rotation vector before it is turned into a matrix.
  /// - Throws: the error `fail` makes when its norm exceeds `maxRotationAngle` (or overflows).
  static func checkRodrigues(_ r: SIMD3<Double>, fail: (Part, String) -> InputError) throws {
    let largest = max(abs(r.x), abs(r.y), abs(r.z))
    guard largest <= maxRotationAngle, (r * r).sum().squareRoot() <= maxRotationAngle else {
      throw fail(.rotation, "extrinsics out of range: Rodrigues vector [\(r.x), \(r.y), \(r.z)] turns by more than 100 rad; accepted |r| ≤ 100 (a rotation needs at most π)")
    }
  }
}
