/// A rotation followed by a translation: `y = rotation · x + translation`.
///
/// Named by the frames it maps between, e.g. `camFromWorld` maps world points into a camera:
/// `x_cam = R · x_world + t` (the convention of OpenCV, colmap, Pose2Sim and anipose).
public struct RigidTransform: Sendable, Equatable, Hashable {
  public var rotation: Matrix3
  public var translation: SIMD3<Double>

  public init(rotation: Matrix3, translation: SIMD3<Double>) {
    self.rotation = rotation
    self.translation = translation
  }

  public static let identity = RigidTransform(rotation: .identity, translation: .zero)

  /// Applies the transform to a point.
  public func apply(_ x: SIMD3<Double>) -> SIMD3<Double> { rotation * x + translation }

  /// The inverse transform (`worldFromCam` of a `camFromWorld`, and so on).
  public var inverse: RigidTransform {
    let rt = rotation.transposed
    return RigidTransform(rotation: rt, translation: -(rt * translation))
  }

  /// Composition: `(a * b).apply(x) == a.apply(b.apply(x))`.
  public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
    RigidTransform(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
  }
}
