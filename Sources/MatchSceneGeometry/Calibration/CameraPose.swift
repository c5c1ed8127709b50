internal import CTriangulation
import MatchSceneCore

/// A calibrated camera's pose from known world points and their pixels (the perspective-n-point
/// problem): OpenCV's SQPnP (G. Terzakis, M. Lourakis, "A consistently fast and globally optimal solution
/// to the perspective-n-point problem", ECCV 2020) for the start, refined by Levenberg–Marquardt on the
/// reprojection error through the full pinhole + Brown–Conrady lens model.
public enum CameraPose {
  /// The fitted camera and its residuals.
  public struct Result: Sendable {
    /// The input camera with its pose (`camFromWorld`) replaced.
    public var camera: Camera
    /// Per point, the pixel distance between its projection and its pixel.
    public var residualsPx: [Double]
    public var rmsPx: Double
  }

  /// - Parameters:
  ///   - camera: a pinhole camera whose intrinsics are known (its pose is ignored).
  ///   - world: at least 4 points, metres; `pixels` the same count.
  /// - Returns: nil when no pose fits (fewer than 4 points, a degenerate configuration, a fisheye lens).
  public static func solve(camera: Camera, world: [SIMD3<Double>], pixels: [SIMD2<Double>]) -> Result? {
    guard world.count >= 4, world.count == pixels.count, camera.lensModel == .pinhole else { return nil }
    let record = camera.shimRecord
    var fitted = record
    var residuals = [Double](repeating: 0, count: world.count)
    var rms = 0.0
    let status = mscal_solve_pose(
      record, world.flatMap { [$0.x, $0.y, $0.z] }, pixels.flatMap { [$0.x, $0.y] }, world.count, &fitted, &residuals, &rms)
    guard status == MSCAL_OK else { return nil }
    return Result(camera: camera.updated(fromShimRecord: fitted[...]), residualsPx: residuals, rmsPx: rms)
  }
}
