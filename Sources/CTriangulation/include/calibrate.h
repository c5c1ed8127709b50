// Camera calibration kernels (C++17 + OpenCV 4) behind the conventions of CTriangulation.h: caller-owned
// flat buffers, a status code from every call, no C++ exception across the boundary (cv::Exception and
// everything else is caught inside and returned as a status).
#ifndef MATCHSCENE_CALIBRATE_H
#define MATCHSCENE_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every calibration call.
typedef enum mscal_status {
  MSCAL_OK = 0,
  /// A NULL buffer, a count too small, a non-finite value.
  MSCAL_INVALID_ARGUMENT = 1,
  /// Not used since images arrive decoded; kept so the codes keep their values.
  MSCAL_UNREADABLE_IMAGE = 2,
  /// No complete checkerboard of the given inner-corner size was found in the image.
  MSCAL_NOT_FOUND = 3,
  /// The solver failed (rank-deficient views, no convergence, a degenerate configuration).
  MSCAL_DEGENERATE = 4,
  /// A C++ exception (OpenCV's included) was caught inside the shim.
  MSCAL_INTERNAL_ERROR = 99
} mscal_status;

/// Finds the inner corners of a checkerboard of `columns` × `rows` inner corners in an 8-bit grey image
/// (`width` × `height` pixels, row-major, no padding, caller-owned), refined to sub-pixel accuracy.
/// - corners_out: 2 · columns · rows doubles (x, y pixels, OpenCV's convention: origin at the centre of the
///   top-left pixel), in OpenCV's order: row by row, each row along the board's `columns` direction.
/// Algorithm: cv::findChessboardCornersSB (Duda & Frese, "Accurate detection and localization of
/// checkerboard corners for calibration", BMVC 2018) and, when it finds nothing, cv::findChessboardCorners
/// (adaptive threshold + quad grouping) refined by cv::cornerSubPix (Förstner's corner operator).
mscal_status mscal_find_checkerboard(const uint8_t *pixels, int32_t width, int32_t height, int32_t columns,
                                     int32_t rows, double *corners_out);

/// Zhang's calibration ("A flexible new technique for camera calibration", TPAMI 2000) of one pinhole
/// camera from `view_count` views of one planar target of `point_count` points (cv::calibrateCamera).
/// - object_points: 3 · point_count doubles, the target's points in its own frame (z = 0).
/// - image_points: 2 · point_count · view_count doubles, view-major.
/// - distortion_terms: 0 (none), 2 (k1 k2), 4 (k1 k2 p1 p2) or 5 (k1 k2 p1 p2 k3); the others are fixed at 0.
/// - camera_out: MSTRI_CAMERA_STRIDE doubles (CTriangulation.h's layout), intrinsics and distortion
///   written, the extrinsics set to the identity.
/// - view_rms_out: view_count doubles, each view's RMS reprojection error (pixels).
/// - view_poses_out (optional): 6 · view_count doubles, each view's Rodrigues vector and translation
///   (target to camera, the target's units).
/// - rms_out: the RMS reprojection error over all points (pixels).
mscal_status mscal_calibrate_intrinsics(const double *object_points, size_t point_count,
                                        const double *image_points, size_t view_count, int32_t width,
                                        int32_t height, int32_t distortion_terms, double *camera_out,
                                        double *view_rms_out, double *view_poses_out, double *rms_out);

/// The pose of one camera of known intrinsics (`camera`: MSTRI_CAMERA_STRIDE doubles, its extrinsics
/// ignored) from `point_count` ≥ 4 known world points and their pixels: cv::solvePnP (SQPnP, Terzakis &
/// Lourakis ECCV 2020, for the start; then Levenberg–Marquardt on the reprojection error).
/// - camera_out: the camera with its extrinsics (R, t: world to camera) written (may alias `camera`).
/// - residuals_out (optional): point_count pixel distances between the projections and the pixels.
/// - rms_out: the RMS of those distances.
mscal_status mscal_solve_pose(const double *camera, const double *world_points, const double *pixels,
                              size_t point_count, double *camera_out, double *residuals_out, double *rms_out);

/// A measure of sharpness of an 8-bit grey image (as for `mscal_find_checkerboard`): the variance of its
/// Laplacian (grey levels²) over the image (Pech-Pacheco et al., ICPR 2000). Low values (below about 20
/// for a print at a few metres) mean blur.
mscal_status mscal_image_sharpness(const uint8_t *pixels, int32_t width, int32_t height, double *sharpness_out);

/// The relative pose of two calibrated views from `count` ≥ 5 point correspondences in normalised
/// undistorted coordinates (z = 1 plane): the essential matrix by Nistér's five-point solver inside
/// RANSAC (D. Nistér, "An efficient solution to the five-point relative pose problem", TPAMI 2004;
/// cv::findEssentialMat), then the one of its four decompositions that puts the inliers in front of both
/// views (Hartley & Zisserman, Multiple View Geometry, 2nd ed., §9.6.2; cv::recoverPose).
/// - threshold: largest distance of an inlier from its epipolar line, normalised units (pixels / focal).
/// - max_iterations: RANSAC's iterations at most.
/// - rotation_out (9 doubles, row-major), translation_out (3 doubles, unit length): view b's frame from
///   view a's, x_b = R · x_a + t.
/// - inliers_out: count bytes, 1 for the correspondences that pass both the epipolar and the
///   in-front-of-both-views tests; inlier_count_out their number.
/// Returns MSCAL_DEGENERATE when no essential matrix or no decomposition with inliers in front is found.
mscal_status mscal_relative_pose(const double *normalised_a, const double *normalised_b, size_t count,
                                 double threshold, int32_t max_iterations, double *rotation_out,
                                 double *translation_out, uint8_t *inliers_out, size_t *inlier_count_out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MATCHSCENE_CALIBRATE_H
