import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where one simulated camera stands and what it looks at, with its lens.
public struct CameraPlacement: Sendable, Equatable {
  public var name: String
  /// Optical centre, metres, world frame (z up, origin on the floor below the centre of the net).
  public var position: SIMD3<Double>
  /// The world point imaged at the principal point.
  public var target: SIMD3<Double>
  public var imageSize: ImageSize
  /// Focal length in pixels (fx = fy).
  public var focalPx: Double
  /// Brown–Conrady coefficients k1, k2, p1, p2, k3 (OpenCV order); missing ones are zero.
  public var distortion: [Double]
  /// This camera's frame number minus the match frame number (`Match.frameOffsets`).
  public var frameOffset: Int

  public init(
    name: String, position: SIMD3<Double>, target: SIMD3<Double>,
    imageSize: ImageSize = ImageSize(width: 1920, height: 1080), focalPx: Double = 1400,
    distortion: [Double] = [-0.1, 0.05, 0.0005, -0.0003, 0], frameOffset: Int = 0
  ) {
    self.name = name
    self.position = position
    self.target = target
    self.imageSize = imageSize
    self.focalPx = focalPx
    self.distortion = distortion
    self.frameOffset = frameOffset
  }

  /// The calibrated camera (`Camera.lookingAt` with world z up). When the camera looks straight
  /// up or down, world x is used as "up" in the image instead.
  public var camera: Camera {
    let dir = normalize(target - position)
    let up: SIMD3<Double> = abs(dir.z) > 0.999 ? SIMD3(1, 0, 0) : SIMD3(0, 0, 1)
    return Camera.lookingAt(
      target, from: position, up: up, name: name, imageSize: imageSize, focalPx: focalPx,
      distortion: distortion)
  }

  /// Checks the placement. - Throws: `InputError` naming the camera and the setting
  /// (`camera <name>.<setting>`).
  public func validate(file: String = "rig") throws {
    if let (key, message) = problem {
      throw InputError(file: file, location: .key("camera \(name).\(key)"), message)
    }
  }

  /// The first thing wrong with this placement, as (setting, message), or nil.
  var problem: (key: String, message: String)? {
    if name.isEmpty { return ("name", "empty camera name") }
    for (key, v) in [("position", position), ("target", target)] where !(v.x.isFinite && v.y.isFinite && v.z.isFinite) {
      return (key, "not finite")
    }
    if length(target - position) <= 1e-6 { return ("target", "equals the position") }
    if imageSize.width <= 0 || imageSize.height <= 0 { return ("size", "must be positive") }
    if !(focalPx.isFinite && focalPx > 0) { return ("focal_px", "must be positive, got \(focalPx)") }
    if distortion.count > 5 || !distortion.allSatisfy(\.isFinite) {
      return ("distortion", "expected up to 5 finite numbers (k1, k2, p1, p2, k3)")
    }
    return nil
  }
}

/// A set of simulated cameras.
public struct RigConfig: Sendable, Equatable {
  public var cameras: [CameraPlacement]
  /// How far the written calibration is from these cameras (off by default).
  public var calibrationError = CalibrationError()

  public init(cameras: [CameraPlacement]) { self.cameras = cameras }

  /// Four cameras as a club or broadcast crew would place them: on the extensions of the table's
  /// diagonals, behind its four corners, 5.5 m from its centre and 2.5 m high, looking at the table
  /// centre 0.8 m above the floor, 1920×1080 with a 1400 px focal length (about 69° × 42° field of
  /// view) and mild barrel distortion. Both players stay entirely inside every image (closer or
  /// lower cameras cut off the near player's feet when they move towards them).
  public static let `default` = RigConfig.ring(count: 4)

  /// `count` cameras evenly spaced on a horizontal circle around the table centre, all looking at
  /// `target`, named `cam1`, `cam2`, … counter-clockwise seen from above.
  ///
  /// - Parameters:
  ///   - radius: horizontal distance from the world origin, metres.
  ///   - height: height of every optical centre above the floor, metres.
  ///   - startAngle: azimuth of `cam1` from the +x axis, radians; the default (0.5, close to the
  ///     diagonal's 29°) puts four cameras behind the corners of the table.
  ///   - distortion: Brown–Conrady k1, k2, p1, p2, k3, the same for every camera.
  public static func ring(
    count: Int, radius: Double = 5.5, height: Double = 2.5, target: SIMD3<Double> = SIMD3(0, 0, 0.8),
    startAngle: Double = 0.5, imageSize: ImageSize = ImageSize(width: 1920, height: 1080),
    focalPx: Double = 1400, distortion: [Double] = [-0.1, 0.05, 0.0005, -0.0003, 0]
  ) -> RigConfig {
    precondition(count >= 0, "camera count must not be negative")
    let cameras = (0..<count).map { i -> CameraPlacement in
      let angle = startAngle + 2 * Double.pi * Double(i) / Double(count)
      return CameraPlacement(
        name: "cam\(i + 1)", position: SIMD3(radius * cos(angle), radius * sin(angle), height),
        target: target, imageSize: imageSize, focalPx: focalPx, distortion: distortion)
    }
    return RigConfig(cameras: cameras)
  }

  /// Checks every camera and that names are unique. - Throws: `InputError`.
  public func validate(file: String = "rig") throws {
    guard !cameras.isEmpty else { throw InputError(file: file, location: .key("camera"), "the rig has no camera") }
    try calibrationError.validate()
    var seen = Set<String>()
    for camera in cameras {
      try camera.validate(file: file)
      guard seen.insert(camera.name).inserted else {
        throw InputError(file: file, location: .key("camera \(camera.name)"), "duplicate camera name")
      }
    }
  }
}
