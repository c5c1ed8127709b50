internal import CTriangulation
import MatchSceneCore

/// One pinhole camera's intrinsics from several views of a planar target: Zhang's method (Z. Zhang, "A
/// flexible new technique for camera calibration", IEEE TPAMI 22(11), 2000) as OpenCV's
/// `calibrateCamera` implements it: closed-form start from the views' homographies, then
/// Levenberg–Marquardt over the intrinsics, the distortion and every view's pose.
public enum ZhangCalibration {
  /// The calibrated camera and how well each view fits.
  public struct Result: Sendable {
    /// Intrinsics and distortion; its pose is the identity.
    public var camera: Camera
    /// Each view's root-mean-square reprojection error, pixels.
    public var viewRMSPx: [Double]
    /// Each view's board pose: board frame to camera frame (metres).
    public var camFromBoard: [RigidTransform]
    /// The RMS reprojection error over all views' points, pixels.
    public var rmsPx: Double
  }

  /// - Parameters:
  ///   - target: the target's points in its own frame (z = 0), metres.
  ///   - views: per view, the target's points' pixels in `target`'s order (each the same count).
  ///   - distortionTerms: 0, 2 (k1 k2), 4 (k1 k2 p1 p2) or 5 (with k3): the Brown–Conrady terms fitted.
  /// - Returns: nil when the solver fails (too few or degenerate views).
  public static func calibrate(
    name: String, target: [SIMD3<Double>], views: [[SIMD2<Double>]], imageSize: ImageSize, distortionTerms: Int
  ) -> Result? {
    guard !views.isEmpty, views.allSatisfy({ $0.count == target.count }) else { return nil }
    let object = target.flatMap { [$0.x, $0.y, $0.z] }
    let image = views.flatMap { $0.flatMap { [$0.x, $0.y] } }
    var record = [Double](repeating: 0, count: Int(MSTRI_CAMERA_STRIDE.rawValue))
    var viewRMS = [Double](repeating: 0, count: views.count)
    var poses = [Double](repeating: 0, count: 6 * views.count)
    var rms = 0.0
    let status = mscal_calibrate_intrinsics(
      object, target.count, image, views.count, Int32(imageSize.width), Int32(imageSize.height), Int32(distortionTerms),
      &record, &viewRMS, &poses, &rms)
    guard status == MSCAL_OK else { return nil }
    let camera = Camera(
      name: name, imageSize: imageSize, fx: record[Int(MSTRI_CAM_FX.rawValue)], fy: record[Int(MSTRI_CAM_FY.rawValue)],
      cx: record[Int(MSTRI_CAM_CX.rawValue)], cy: record[Int(MSTRI_CAM_CY.rawValue)], skew: record[Int(MSTRI_CAM_SKEW.rawValue)],
      distortion: Array(record[Int(MSTRI_CAM_DIST.rawValue)..<Int(MSTRI_CAM_DIST.rawValue) + 5]), camFromWorld: .identity)
    let camFromBoard = (0..<views.count).map { v in
      RigidTransform(
        rotation: .rodrigues(SIMD3(poses[6 * v], poses[6 * v + 1], poses[6 * v + 2])),
        translation: SIMD3(poses[6 * v + 3], poses[6 * v + 4], poses[6 * v + 5]))
    }
    return Result(camera: camera, viewRMSPx: viewRMS, camFromBoard: camFromBoard, rmsPx: rms)
  }
}
