// CTriangulation: numeric kernels of MatchScene (C++17 + Eigen) behind a plain C interface.
//
// Internal to MatchScene: no stable API. Conventions, stated once:
// - Every buffer is owned by the caller. Every function returns an `mstri_status`; no C++ exception
//   ever crosses this boundary (each entry point catches everything and returns MSTRI_INTERNAL_ERROR).
// - Cameras are flat arrays of MSTRI_CAMERA_STRIDE doubles (see `mstri_camera_field`).
//   The extrinsics map world to camera: x_cam = R · x_world + t (R row-major, metres).
// - Pixels follow OpenCV: origin at the centre of the top-left pixel, x right, y down; camera z forward.
// - "Normalised" coordinates are undistorted image coordinates on the z = 1 plane of the camera.
#ifndef MATCHSCENE_CTRIANGULATION_H
#define MATCHSCENE_CTRIANGULATION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every call. Per-item statuses use the same values.
typedef enum mstri_status {
  MSTRI_OK = 0,
  /// A NULL buffer where one is required, a count of zero where one is needed, a non-finite input.
  MSTRI_INVALID_ARGUMENT = 1,
  /// Fewer than two views passed the confidence threshold.
  MSTRI_TOO_FEW_VIEWS = 2,
  /// The rays are (nearly) parallel or the linear system is rank deficient: no unique point.
  MSTRI_DEGENERATE = 3,
  /// The point lies behind (or on the principal plane of) a camera that observed it.
  MSTRI_BEHIND_CAMERA = 4,
  /// An iterative step (undistortion, refinement) did not converge.
  MSTRI_NOT_CONVERGED = 5,
  /// Robust mode: no set of at least `min_views` views agrees within `max_reprojection_px`.
  MSTRI_INCONSISTENT = 6,
  /// Bundle adjustment: a camera to refine has fewer usable observations than the options require
  /// (see `mstri_bundle_camera_report.status` for which).
  MSTRI_TOO_FEW_OBSERVATIONS = 7,
  /// A C++ exception or an unexpected numeric failure was caught inside the shim.
  MSTRI_INTERNAL_ERROR = 99
} mstri_status;

/// Lens models.
typedef enum mstri_lens_model {
  /// OpenCV pinhole with Brown–Conrady distortion (k1, k2, p1, p2, k3).
  MSTRI_LENS_PINHOLE = 0,
  /// OpenCV fisheye (Kannala–Brandt, k1..k4 in the first four distortion slots).
  MSTRI_LENS_FISHEYE = 1
} mstri_lens_model;

/// Offsets of the fields inside one camera record of MSTRI_CAMERA_STRIDE doubles.
enum mstri_camera_field {
  MSTRI_CAM_MODEL = 0,  ///< mstri_lens_model stored as a double (0.0 or 1.0)
  MSTRI_CAM_FX = 1,
  MSTRI_CAM_FY = 2,
  MSTRI_CAM_CX = 3,
  MSTRI_CAM_CY = 4,
  MSTRI_CAM_SKEW = 5,   ///< K[0][1]; usually 0
  MSTRI_CAM_DIST = 6,   ///< 5 coefficients: pinhole k1 k2 p1 p2 k3; fisheye k1 k2 k3 k4 (5th unused)
  MSTRI_CAM_R = 11,     ///< 9 doubles, row-major rotation camFromWorld
  MSTRI_CAM_T = 20,     ///< 3 doubles, translation camFromWorld (metres)
  MSTRI_CAMERA_STRIDE = 23
};

/// Options of the triangulation calls. Zero-initialised options are NOT valid; start from
/// `mstri_default_options()` and change what you need. Checked before any work starts.
typedef struct mstri_options {
  /// Observations with confidence below this are ignored (confidence is the third value of each
  /// observation triple). Default 0.1. Must be ≥ 0.
  double min_confidence;
  /// Weight each view's DLT rows by its confidence (1) or weigh all used views equally (0). Default 1.
  int32_t confidence_weighting;
  /// Smallest angle (radians) between the rays of two used views for the point to count as
  /// triangulable. Default 1e-4 rad (about 0.006°).
  double min_ray_angle;
  /// Robust mode (0 = off, the plain weighted DLT). When on: views whose reprojection error exceeds
  /// `max_reprojection_px` are rejected iteratively (worst first, while ≥ `min_views` remain), and the
  /// point is refined by Levenberg–Marquardt on the reprojection error with a Huber loss.
  int32_t robust;
  /// Robust mode: rejection threshold in pixels. Default 8.
  double max_reprojection_px;
  /// Robust mode: Huber loss scale in pixels. Default 2.
  double huber_px;
  /// Robust mode: the fewest views a point may keep. Default 2.
  int32_t min_views;
  /// Robust mode: LM iterations. Default 5 (the optimum is usually reached, within 0.1 µm, in two or
  /// three). 0 keeps the DLT point.
  int32_t max_iterations;
  /// Robust mode with per-camera noise scales (`mstri_triangulate_scaled`): a view whose reprojection
  /// error exceeds this many of its camera's noise scales is rejected (replaces `max_reprojection_px`).
  /// Default 5. Must be > 0.
  double gate_sigmas;
  /// With per-camera noise scales: weigh each view's residual by 1 / its camera's noise scale in the
  /// refinement (1, maximum likelihood for independent Gaussian noise) or only gate in noise units and
  /// weigh pixels equally (0). Default 1.
  int32_t noise_weighting;
} mstri_options;

/// The defaults documented on each field of `mstri_options`.
mstri_options mstri_default_options(void);

/// Checks options; MSTRI_OK or MSTRI_INVALID_ARGUMENT.
mstri_status mstri_check_options(const mstri_options *options);

/// Projects `count` world points (xyz triples) into one camera, distortion included.
/// - pixels_out: 2·count doubles.
/// - status_out (optional, may be NULL): count entries, MSTRI_BEHIND_CAMERA for points with camera
///   depth ≤ 1e-9 m (their pixels are set to 0, never NaN).
/// Returns MSTRI_OK unless the arguments are invalid.
mstri_status mstri_project_points(const double *camera, const double *points_world, size_t count,
                                  double *pixels_out, int32_t *status_out);

/// Applies the camera's lens model to normalised undistorted coordinates (xy pairs) and returns
/// pixels (xy pairs). `normalised` and `pixels_out` may alias.
mstri_status mstri_distort_points(const double *camera, const double *normalised, size_t count,
                                  double *pixels_out);

/// Inverse of `mstri_distort_points`: pixels → normalised undistorted coordinates, solved by
/// Newton's method on the forward model to a residual below 1e-12 (not OpenCV's fixed-point loop, which
/// stalls near the image edge under strong distortion), started from the series reversion of the radial
/// polynomial (Drap & Lefèvre 2016). `status_out` (optional): MSTRI_NOT_CONVERGED per point where
/// it fails; those outputs are the best iterate, always finite.
mstri_status mstri_undistort_points(const double *camera, const double *pixels, size_t count,
                                    double *normalised_out, int32_t *status_out);

/// `mstri_triangulate` with a noise scale per camera (`camera_noise_px`: camera_count values > 0,
/// pixels; NULL is `mstri_triangulate`). Robust mode then measures every residual in units of its
/// camera's noise: a view is rejected while its error exceeds `gate_sigmas` noise scales, the Huber loss
/// works on the scaled residual (δ = 1.345, Huber's 95 %-efficiency constant), and with
/// `noise_weighting` the DLT rows and the refinement weigh each view by 1 / its noise scale. When the
/// worst-first rejection drops views, every larger subset of the views (up to 6 views) is tried too and
/// the largest one whose residuals all lie within the gate is kept (least cost among equals), so two
/// close cameras never win over three that agree.
mstri_status mstri_triangulate_scaled(const double *cameras, size_t camera_count, const double *camera_noise_px,
                                      const double *observations, size_t point_count, const mstri_options *options,
                                      double *points_out, double *reprojection_out, double *mean_reprojection_out,
                                      uint8_t *used_views_out, int32_t *status_out);

/// Triangulates `point_count` points seen by `camera_count` cameras in one call.
/// - cameras: camera_count · MSTRI_CAMERA_STRIDE doubles.
/// - observations: point_count · camera_count triples (x_px, y_px, confidence), point-major:
///   observation of point p in camera c at index 3·(p·camera_count + c). A view is missing when its
///   confidence is ≤ 0, below `min_confidence`, or any of its values is not finite.
/// - options: NULL means `mstri_default_options()`.
/// Outputs (each may be NULL when not wanted, except points_out):
/// - points_out: 3·point_count doubles (world xyz). Failed points get 0, 0, 0 (never NaN).
/// - reprojection_out: point_count · camera_count doubles, the pixel error of the final point in each
///   camera that observed it (also for rejected views); -1 where the view was missing or the point failed.
/// - mean_reprojection_out: point_count doubles, mean pixel error over the used views (-1 on failure).
/// - used_views_out: point_count · camera_count bytes, 1 where the view was used.
/// - status_out: point_count per-point statuses (MSTRI_OK, MSTRI_TOO_FEW_VIEWS, MSTRI_DEGENERATE,
///   MSTRI_BEHIND_CAMERA, MSTRI_NOT_CONVERGED, MSTRI_INCONSISTENT).
/// Returns MSTRI_OK when the call itself was valid (per-point failures are reported per point).
///
/// Algorithm: linear triangulation (DLT) on undistorted normalised coordinates, each view's two rows
/// scaled by its confidence (Hartley & Zisserman, Multiple View Geometry, 2nd ed., §12.2), solved as
/// its inhomogeneous form (X = (x, y, z, 1)) through the 3×3 normal equations; cheirality and ray-angle
/// checks follow. Robust mode then rejects the worst view while its reprojection error exceeds the
/// threshold (at most V − min_views DLT solves, never a subset search) and refines the point by
/// Levenberg–Marquardt (Moré 1978) on the Huber loss (Huber 1964) with the loss's exact Gauss–Newton
/// curvature (Triggs et al., "Bundle adjustment — a modern synthesis", 2000, §4.3), which converges
/// quadratically where reweighting alone (IRLS) crawls. A final step under 30 µm is checked by the pass
/// that measures the reprojection errors rather than by a pass of its own, and undone if the robust
/// cost went up, so refinement never raises the cost.
/// Large batches are split across the machine's hardware threads; on x86-64 Linux the loop is built
/// for both AVX2 + FMA and the baseline, and the CPU picks (function multiversioning).
mstri_status mstri_triangulate(const double *cameras, size_t camera_count,
                               const double *observations, size_t point_count,
                               const mstri_options *options,
                               double *points_out, double *reprojection_out,
                               double *mean_reprojection_out, uint8_t *used_views_out,
                               int32_t *status_out);

/// Left/right swap repair for people seen in several views: decides, per person and view, whether
/// the detector swapped the person's left and right keypoints in that view.
/// - cameras: camera_count · MSTRI_CAMERA_STRIDE doubles.
/// - observations: the same layout as `mstri_triangulate`'s, for person_count · keypoint_count points
///   (keypoint j of person p is point p·keypoint_count + j).
/// - points: 3 · person_count · keypoint_count doubles, a first 3D estimate of every keypoint;
///   valid (optional, may be NULL): one byte per point, 0 where the estimate failed.
/// - mirror_pairs: 2 · pair_count keypoint indices (left, right).
/// - swap_out: person_count · camera_count bytes, 1 where that view should be mirrored.
/// A view is mirrored when, over the pairs whose both keypoints are detected there and estimated in
/// 3D (at least 2), the summed pixel distance of the detections to the reprojected pair drops below
/// half when the pair is exchanged, and by more than `min_gain_px` per pair: the test of a single
/// exchange of the whole pose, as a detector's swap is (see e.g. Pose2Sim's per-view left/right
/// handling). Returns MSTRI_INVALID_ARGUMENT for NULL buffers, bad cameras or indices out of range.
mstri_status mstri_mirror_swaps(const double *cameras, size_t camera_count, const double *observations,
                                const double *points, const uint8_t *valid, size_t person_count,
                                size_t keypoint_count, const int32_t *mirror_pairs, size_t pair_count,
                                double min_confidence, double min_gain_px, uint8_t *swap_out);

// MARK: - Bundle adjustment

/// Robust losses of the bundle adjustment, applied to the norm s of each 2D pixel residual, scale c.
typedef enum mstri_loss {
  /// Huber (1964): ½s² for s ≤ c, c(s − c/2) beyond: convex, any start converges.
  MSTRI_LOSS_HUBER = 0,
  /// Cauchy: ½c² log(1 + s²/c²): gross outliers weigh almost nothing, but the cost is not convex.
  MSTRI_LOSS_CAUCHY = 1
} mstri_loss;

/// Options of `mstri_bundle_adjust`. Start from `mstri_default_bundle_options()`; checked before work.
typedef struct mstri_bundle_options {
  /// mstri_loss. Default MSTRI_LOSS_HUBER.
  int32_t loss;
  /// Scale c of the loss in pixels (> 0). Default 2.
  double loss_scale_px;
  /// Levenberg–Marquardt iterations (1…1000). Default 100.
  int32_t max_iterations;
  /// 1: refine each free camera's focal length too (fx, fy and skew scaled together, so the aspect
  /// ratio and principal point stay). Default 0.
  int32_t refine_focal;
  /// Gauge: the camera held fixed (rotation, centre, focal). −1 (default): the camera with the most
  /// usable observations, unless `fixed_cameras` already holds one or more fixed.
  int32_t reference_camera;
  /// Gauge: the camera whose centre keeps its distance to the reference camera's centre (fixes the
  /// scale). −1 (default): of the free cameras, the one with the most usable observations. Ignored when
  /// two or more cameras are fixed (they fix the scale themselves).
  int32_t scale_camera;
  /// Stop when an iteration lowers the cost by less than this fraction of it. Default 1e-7.
  double function_tolerance;
  /// Stop after a step that moved no camera parameter by more than this (radians, metres, focal
  /// ratio). Default 1e-6 (6e-5°, 1 µm: a thousandth of what 1 px of noise leaves on a camera's pose).
  double step_tolerance;
  /// The fewest usable observations (of points seen usably by two cameras or more) a camera that is
  /// refined must have (≥ 3). Default 6.
  int32_t min_camera_observations;
} mstri_bundle_options;

/// The defaults documented on each field of `mstri_bundle_options`.
mstri_bundle_options mstri_default_bundle_options(void);

/// Checks bundle options; MSTRI_OK or MSTRI_INVALID_ARGUMENT.
mstri_status mstri_check_bundle_options(const mstri_bundle_options *options);

/// How one camera took part in a bundle adjustment.
typedef enum mstri_camera_role {
  MSTRI_ROLE_REFINED = 0,    ///< rotation and centre (and focal if asked) refined
  MSTRI_ROLE_REFERENCE = 1,  ///< held fixed as the gauge's reference
  MSTRI_ROLE_SCALE = 2,      ///< refined, its centre kept at its distance from the reference's
  MSTRI_ROLE_FIXED = 3       ///< held fixed by the caller
} mstri_camera_role;

/// Per-camera figures of a bundle adjustment, over the camera's usable observations. Pixel residuals
/// are the distances between the projections (lens distortion included) and the observations. The
/// robust RMS is sqrt(2 Σ wᵢ ρ(sᵢ) / Σ wᵢ): the RMS where every residual is inside the loss scale.
typedef struct mstri_bundle_camera_report {
  int32_t status;      ///< MSTRI_OK, or MSTRI_TOO_FEW_OBSERVATIONS for a camera to refine that has too few
  int32_t role;        ///< mstri_camera_role
  int32_t observations;       ///< observations naming this camera
  int32_t used_observations;  ///< of those, usable (finite, weight > 0, in front, point seen by 2+ cameras)
  double rms_before_px, rms_after_px;
  double median_before_px, median_after_px;
  double robust_rms_before_px, robust_rms_after_px;
} mstri_bundle_camera_report;

/// Outcome of a bundle adjustment as a whole.
typedef struct mstri_bundle_summary {
  int32_t iterations;          ///< Levenberg–Marquardt iterations run (each solves ≥ 1 damped system)
  int32_t converged;           ///< 1: a tolerance stopped it, or no step lowers the cost; 0: out of iterations
  int32_t reference_camera;    ///< the gauge's reference, −1 when the caller fixed two or more cameras
  int32_t scale_camera;        ///< the camera keeping its distance, −1 when none
  int32_t refined_points;      ///< points seen usably by two cameras or more
  int32_t used_observations;
  double initial_cost, final_cost;  ///< Σ wᵢ ρ(sᵢ), pixels²
} mstri_bundle_summary;

/// Robust bundle adjustment: refines the cameras' poses (and optionally focal lengths) and the 3D
/// points together, minimising Σ wᵢ ρ(‖π(camera cᵢ, point pᵢ) − xᵢ‖) over the observations, ρ the
/// robust loss of the options, π the camera's projection with its lens model (distortion held fixed).
/// - cameras: camera_count · MSTRI_CAMERA_STRIDE doubles (the layout of every other call).
/// - fixed_cameras (optional, may be NULL): camera_count bytes, 1 for a camera held as it is.
/// - observation_indices: 2 · observation_count int32 (camera, point) pairs;
///   observation_values: 3 · observation_count doubles (x_px, y_px, weight). An observation with a
///   weight ≤ 0 or a non-finite value is not used (as a missing view of `mstri_triangulate`), nor is one
///   whose point lies behind its camera at the start, nor the observations of a point that fewer than
///   two cameras see usably.
/// - points: 3 · point_count doubles, the starting world points (all finite).
/// - options: NULL means `mstri_default_bundle_options()`.
/// Outputs (all sizes follow from the inputs; camera_reports_out and summary_out may be NULL):
/// - cameras_out: camera_count · MSTRI_CAMERA_STRIDE doubles, the refined records (may alias `cameras`).
/// - points_out: 3 · point_count doubles (may alias `points`); points not refined are copied.
/// - camera_reports_out: camera_count reports; summary_out: one summary.
/// Returns MSTRI_INVALID_ARGUMENT (NULL buffers, an index out of range, an invalid camera or point,
/// invalid options), MSTRI_TOO_FEW_OBSERVATIONS, MSTRI_DEGENERATE (the reference and scale cameras share
/// a centre; a damped system that cannot be solved), else MSTRI_OK, the outputs written whether or not it
/// converged. On failure the outputs hold the inputs (reports and summary still filled where known).
///
/// Algorithm: Levenberg–Marquardt (Nielsen's damping update; K. Madsen, H. B. Nielsen, O. Tingleff,
/// "Methods for non-linear least squares problems", 2004, §3.2) with Marquardt's diagonal scaling, and
/// after each accepted step a few embedded point iterations (Jeong et al., TPAMI 2012, §4). Each
/// camera moves by a rotation increment R ← exp([ω]×) R (Rodrigues) and a step of its centre C
/// (x_cam = R (x_world − C)); the points, many, are eliminated by the Schur complement and the reduced
/// camera system, small and dense, is solved by Cholesky (B. Triggs, P. McLauchlan, R. Hartley,
/// A. Fitzgibbon, "Bundle adjustment — a modern synthesis", 2000, §6.1; Hartley & Zisserman, Multiple
/// View Geometry, 2nd ed., A6.3). The robust loss weighs each residual by ρ'(s)/s (Triggs et al. §4.3
/// without the second-order term, which is ≤ 0 for both losses; Ceres Solver drops it likewise).
/// Gauge (Triggs §9):
/// one reference camera fixed and one distance kept, or two or more cameras fixed by the caller.
mstri_status mstri_bundle_adjust(const double *cameras, size_t camera_count, const uint8_t *fixed_cameras,
                                 const int32_t *observation_indices, const double *observation_values,
                                 size_t observation_count, const double *points, size_t point_count,
                                 const mstri_bundle_options *options, double *cameras_out, double *points_out,
                                 mstri_bundle_camera_report *camera_reports_out,
                                 mstri_bundle_summary *summary_out);

#ifdef __cplusplus
}  // extern "C"
#endif

// Camera calibration (OpenCV): checkerboard corners, Zhang's method, camera pose.
#include "calibrate.h"

#endif  // MATCHSCENE_CTRIANGULATION_H
