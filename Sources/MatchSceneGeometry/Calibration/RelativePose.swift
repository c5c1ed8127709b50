internal import CTriangulation
import MatchSceneCore

/// The relative pose of two calibrated cameras from pixel correspondences alone: Nistér's five-point
/// essential matrix inside RANSAC (D. Nistér, "An efficient solution to the five-point relative pose
/// problem", TPAMI 26(6), 2004), decomposed into the rotation and the direction of the baseline that put
/// the points in front of both cameras (Hartley & Zisserman, Multiple View Geometry, 2nd ed., §9.6.2),
/// through OpenCV's `findEssentialMat` and `recoverPose`. The baseline's length is not observable: the
/// translation has unit length.
public enum RelativePose {
  /// Camera b's frame from camera a's (x_b = R · x_a + t, |t| = 1) and which correspondences fit it.
  public struct Result: Sendable {
    public var bFromA: RigidTransform
    /// Per correspondence: within the epipolar threshold and in front of both cameras.
    public var inliers: [Bool]
    public var inlierCount: Int
  }

  /// - Parameters:
  ///   - a, b: cameras with known intrinsics (their poses are ignored); the pixels are undistorted with
  ///     their lens models first.
  ///   - pixelsA, pixelsB: the same count (≥ 5) of corresponding pixels.
  ///   - thresholdPx: largest distance of an inlier from its epipolar line, pixels (of the mean focal
  ///     length of the two cameras).
  ///   - maxIterations: RANSAC's iterations at most (more for a lower share of inliers).
  /// - Returns: nil when no pose fits (too few correspondences, a degenerate configuration, pixels the
  ///   lens model cannot undistort all dropped and fewer than five left).
  public static func solve(
    a: Camera, b: Camera, pixelsA: [SIMD2<Double>], pixelsB: [SIMD2<Double>], thresholdPx: Double = 2,
    maxIterations: Int = 5000
  ) -> Result? {
    guard pixelsA.count == pixelsB.count, pixelsA.count >= 5,
      let na = try? a.undistort(pixelsA), let nb = try? b.undistort(pixelsB)
    else { return nil }
    let kept = (0..<pixelsA.count).filter { na[$0] != nil && nb[$0] != nil }
    guard kept.count >= 5 else { return nil }
    let flatA = kept.flatMap { [na[$0]!.x, na[$0]!.y] }, flatB = kept.flatMap { [nb[$0]!.x, nb[$0]!.y] }
    var rotation = [Double](repeating: 0, count: 9), translation = [Double](repeating: 0, count: 3)
    var mask = [UInt8](repeating: 0, count: kept.count)
    var count = 0
    let focal = (a.fx + a.fy + b.fx + b.fy) / 4
    let status = mscal_relative_pose(
      flatA, flatB, kept.count, thresholdPx / focal, Int32(max(1, maxIterations)), &rotation, &translation, &mask, &count)
    guard status == MSCAL_OK else { return nil }
    var inliers = [Bool](repeating: false, count: pixelsA.count)
    for (i, k) in kept.enumerated() where mask[i] != 0 { inliers[k] = true }
    return Result(
      bFromA: RigidTransform(rotation: Matrix3(rowMajor: rotation), translation: SIMD3(translation[0], translation[1], translation[2])),
      inliers: inliers, inlierCount: count)
  }
}
