import MatchSceneCore

/// How far the calibration a simulated rig writes out is from its true cameras: a real
/// calibration is a few pixels off at the image edge, and often one camera is much worse (a bumped
/// tripod, a board seen at too few angles). Detections are made with the true cameras; `match.toml`'s
/// folder gets the erroneous ones, and `truth/calibration.toml` the true ones.
///
/// Each camera's error is drawn from the seed (`RandomStream.calibrationFaults`): a rotation about a
/// random axis of `rotationDegrees`·|N(0, 1)|-ish size, an optical-centre shift of `positionMetres` per axis
/// and a focal-length error of `focalFraction` (relative); `worstCamera`'s errors are `worstFactor` times
/// larger. At 1400 px focal length 0.1° is 2.4 px and 0.2 % of focal is 1.9 px at the image's side edge.
public struct CalibrationError: Sendable, Equatable {
  /// Off (the default): the written calibration is the true one.
  public var simulate: Bool
  /// Standard deviation of the rotation error's angle, degrees.
  public var rotationDegrees: Double
  /// Standard deviation of the optical centre's error per axis, metres.
  public var positionMetres: Double
  /// Standard deviation of the relative focal-length error (fx = fy scaled by 1 + e).
  public var focalFraction: Double
  /// Index of the camera whose errors are `worstFactor` times larger; nil = none.
  public var worstCamera: Int?
  public var worstFactor: Double

  public init(
    simulate: Bool = false, rotationDegrees: Double = 0.08, positionMetres: Double = 0.005,
    focalFraction: Double = 0.002, worstCamera: Int? = 2, worstFactor: Double = 5
  ) {
    self.simulate = simulate
    self.rotationDegrees = rotationDegrees
    self.positionMetres = positionMetres
    self.focalFraction = focalFraction
    self.worstCamera = worstCamera
    self.worstFactor = worstFactor
  }

  /// The harder simulator's calibration: on, with the defaults (the third camera 5× worse).
  public static let hard = CalibrationError(simulate: true)

  /// The calibration written for `camera` (index `index` in the rig): the true camera with this error
  /// applied, drawn from `rng`. Returns `camera` itself when `simulate` is off.
  func written(_ camera: Camera, index: Int, rng: inout SeededGenerator) -> Camera {
    guard simulate else { return camera }
    let scale = index == worstCamera ? worstFactor : 1
    var axis = SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    let norm = (axis * axis).sum().squareRoot()
    axis = norm > 0 ? axis / norm : SIMD3(0, 0, 1)
    let angle = scale * rotationDegrees * rng.gaussian() * Double.pi / 180
    let shift = scale * positionMetres * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
    let focal = 1 + scale * focalFraction * rng.gaussian()
    var out = camera
    // Perturb in the camera frame: camFromWorld' = δR · camFromWorld, centre' = centre + shift.
    let rotation = Matrix3.rodrigues(angle * axis) * camera.camFromWorld.rotation
    let centre = camera.center + shift
    out.camFromWorld = RigidTransform(rotation: rotation, translation: -(rotation * centre))
    out.fx *= focal
    out.fy *= focal
    return out
  }

  /// Checks the settings. - Throws: `InputError` naming the key.
  func validate() throws {
    for (key, value) in [
      ("rotation_degrees", rotationDegrees), ("position_metres", positionMetres), ("focal_fraction", focalFraction),
      ("worst_factor", worstFactor),
    ] where !(value.isFinite && value >= 0) {
      throw InputError(file: "simulation", location: .key("calibration_error.\(key)"), "must be ≥ 0, got \(value)")
    }
  }
}
