/// Lens distortion model of a camera.
public enum LensModel: String, Sendable, Codable, CaseIterable {
  /// OpenCV pinhole with Brown–Conrady distortion: k1, k2, p1, p2, k3.
  case pinhole
  /// OpenCV fisheye (Kannala–Brandt): k1, k2, k3, k4.
  case fisheye
}

/// Image size in pixels.
public struct ImageSize: Sendable, Equatable, Hashable, Codable {
  public var width: Int
  public var height: Int
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// A calibrated camera: OpenCV intrinsics and distortion, and its pose.
///
/// Pixels follow OpenCV (origin at the centre of the top-left pixel, x right, y down; camera z looks
/// forward). The pose maps world to camera: `x_cam = camFromWorld.rotation · x_world + camFromWorld.translation`.
public struct Camera: Sendable, Equatable, Hashable {
  public var name: String
  public var imageSize: ImageSize
  public var fx: Double
  public var fy: Double
  public var cx: Double
  public var cy: Double
  /// K[0][1]; zero for nearly every real camera.
  public var skew: Double
  public var lensModel: LensModel
  /// Pinhole: k1, k2, p1, p2, k3. Fisheye: k1, k2, k3, k4 (and a zero). Always 5 entries.
  public var distortion: [Double]
  public var camFromWorld: RigidTransform

  /// - Parameter distortion: 0, 4 or 5 coefficients; missing ones are zero.
  public init(
    name: String, imageSize: ImageSize, fx: Double, fy: Double, cx: Double, cy: Double,
    skew: Double = 0, lensModel: LensModel = .pinhole, distortion: [Double] = [],
    camFromWorld: RigidTransform
  ) {
    self.name = name
    self.imageSize = imageSize
    self.fx = fx
    self.fy = fy
    self.cx = cx
    self.cy = cy
    self.skew = skew
    self.lensModel = lensModel
    self.distortion = Array((distortion + [0, 0, 0, 0, 0]).prefix(5))
    self.camFromWorld = camFromWorld
  }

  /// The 3×3 intrinsic matrix K.
  public var intrinsicMatrix: Matrix3 {
    Matrix3(rowMajor: [fx, skew, cx, 0, fy, cy, 0, 0, 1])
  }

  public var worldFromCam: RigidTransform { camFromWorld.inverse }

  /// Optical centre in world coordinates.
  public var center: SIMD3<Double> { worldFromCam.translation }

  /// Unit viewing direction (camera +z) in world coordinates.
  public var forward: SIMD3<Double> { camFromWorld.rotation.transposed * SIMD3(0, 0, 1) }

  /// Horizontal and vertical field of view in radians (of the pinhole part, distortion ignored).
  public var fieldOfView: (horizontal: Double, vertical: Double) {
    (2 * atan(Double(imageSize.width) / (2 * fx)), 2 * atan(Double(imageSize.height) / (2 * fy)))
  }

  /// A camera at `eye` looking at `target`, with world `up` appearing upwards in the image.
  /// - Precondition: `target - eye` is not parallel to `up`.
  public static func lookingAt(
    _ target: SIMD3<Double>, from eye: SIMD3<Double>, up: SIMD3<Double> = SIMD3(0, 0, 1),
    name: String, imageSize: ImageSize, focalPx: Double, distortion: [Double] = []
  ) -> Camera {
    let zCam = normalize(target - eye)
    let xCam = normalize(cross(zCam, up))  // image x to the right
    let yCam = cross(zCam, xCam)  // image y downwards
    let rotation = Matrix3(rowMajor: [
      xCam.x, xCam.y, xCam.z, yCam.x, yCam.y, yCam.z, zCam.x, zCam.y, zCam.z,
    ])
    let camFromWorld = RigidTransform(rotation: rotation, translation: -(rotation * eye))
    return Camera(
      name: name, imageSize: imageSize, fx: focalPx, fy: focalPx,
      cx: Double(imageSize.width - 1) / 2, cy: Double(imageSize.height - 1) / 2,
      distortion: distortion, camFromWorld: camFromWorld)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
