// Weighted DLT, view rejection and Levenberg–Marquardt refinement of 3D points, one batch range at a time.
// References: R. Hartley and A. Zisserman, Multiple View Geometry in Computer Vision, 2nd ed., 2004,
// §12.2 (linear triangulation, inhomogeneous form); J. J. Moré, "The Levenberg–Marquardt algorithm: implementation and
// theory", Numerical Analysis, LNM 630, 1978; P. J. Huber, "Robust estimation of a location
// parameter", Ann. Math. Statist. 35(1), 1964.
#include "triangulate_point.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

// Every helper below is inlined into `triangulateRange`, which x86-64 Linux builds twice: for AVX2 + FMA
// (x86-64-v3) and for the baseline, the loader picking one by the CPU (function multiversioning through
// an ifunc). No build flag changes, so the package still runs on any x86-64 or arm64 machine. Remove
// once SwiftPM can set per-target architecture flags safely.
#if defined(__x86_64__) && defined(__linux__) && (defined(__clang__) || defined(__GNUC__))
#define MSTRI_MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define MSTRI_MULTIVERSION
#endif
#define MSTRI_INLINE inline __attribute__((always_inline))

namespace mstri {
namespace {

/// One observation of the point, after undistortion.
struct View {
  int camera;       ///< index into the camera list
  double u, v;      ///< observed pixel
  double xn, yn;    ///< normalised undistorted coordinates
  double weight;    ///< confidence (or 1 without confidence weighting)
  double gateScale; ///< pixels per unit of the rejection gate: the camera's noise scale, or 1
  double lsScale;   ///< pixels per unit of the refined residual: the noise scale when weighing by it, or 1
  double invLsScale;  ///< 1 / lsScale, made once per observation rather than at every evaluation
  double dltScale;  ///< extra DLT row weight: focal length / noise scale when weighing by it, or 1
  double error;     ///< pixel reprojection error of the current estimate
  bool used;
  bool hasRay;
  Eigen::Vector3d ray;  ///< unit viewing ray in world coordinates, valid when `hasRay`
};

/// Result for one point.
struct PointEstimate {
  mstri_status status = MSTRI_TOO_FEW_VIEWS;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  double meanError = -1;
};

/// Solves A x = b for a symmetric positive definite 3×3 A by an unrolled Cholesky factorisation
/// (Eigen's generic LDLT is several times slower at this size). False when A is not safely positive
/// definite: a pivot at or below `relativeFloor` times the largest diagonal entry.
MSTRI_INLINE bool solveSPD3(const Eigen::Matrix3d &A, const Eigen::Vector3d &b, Eigen::Vector3d &x,
                            double relativeFloor = 1e-14) {
  const double floor = relativeFloor * std::max({A(0, 0), A(1, 1), A(2, 2)});
  const double d0 = A(0, 0);
  if (!(d0 > floor)) return false;
  const double l0 = std::sqrt(d0);
  const double l10 = A(1, 0) / l0, l20 = A(2, 0) / l0;
  const double d1 = A(1, 1) - l10 * l10;
  if (!(d1 > floor)) return false;
  const double l1 = std::sqrt(d1);
  const double l21 = (A(2, 1) - l20 * l10) / l1;
  const double d2 = A(2, 2) - l20 * l20 - l21 * l21;
  if (!(d2 > floor)) return false;
  const double l2 = std::sqrt(d2);
  // Forward (L y = b), then backward (Lᵀ x = y).
  const double y0 = b(0) / l0, y1 = (b(1) - l10 * y0) / l1, y2 = (b(2) - l20 * y0 - l21 * y1) / l2;
  x(2) = y2 / l2;
  x(1) = (y1 - l21 * x(2)) / l1;
  x(0) = (y0 - l10 * x(1) - l20 * x(2)) / l0;
  return x.allFinite();
}

/// Copies the upper triangle of a symmetric matrix accumulated there into its lower one.
MSTRI_INLINE void mirrorUpper(Eigen::Matrix3d &A) {
  A(1, 0) = A(0, 1);
  A(2, 0) = A(0, 2);
  A(2, 1) = A(1, 2);
}

/// Weighted linear triangulation over the used views, in its inhomogeneous form (H&Z §12.2: the
/// DLT rows with X = (x, y, z, 1)), solved from the 3×3 normal equations. False when the system is
/// singular, i.e. the point is at infinity or the rays do not constrain it.
MSTRI_INLINE bool linearTriangulate(const CameraModel *cameras, const std::vector<View> &views,
                                    Eigen::Vector3d &point) {
  Eigen::Matrix3d normal = Eigen::Matrix3d::Zero();
  Eigen::Vector3d rhs = Eigen::Vector3d::Zero();
  for (const View &view : views) {
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Matrix3d &R = cam.camFromWorld_R;
    const Eigen::Vector3d &t = cam.camFromWorld_t;
    const double w2 = view.weight * view.weight * view.dltScale * view.dltScale;
    double a1[3], a2[3];
    for (int k = 0; k < 3; ++k) {
      a1[k] = view.xn * R(2, k) - R(0, k);
      a2[k] = view.yn * R(2, k) - R(1, k);
    }
    const double b1 = t(0) - view.xn * t(2), b2 = t(1) - view.yn * t(2);
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) normal(i, j) += w2 * (a1[i] * a1[j] + a2[i] * a2[j]);
      rhs(i) += w2 * (a1[i] * b1 + a2[i] * b2);
    }
  }
  mirrorUpper(normal);
  // Near-singular systems (rays that do not pin the point down) fail here.
  return solveSPD3(normal, rhs, point);
}

/// x_cam = camFromWorld_R · point + camFromWorld_t, written out (Eigen's expression costs shuffles here).
MSTRI_INLINE void toCamera(const CameraModel &cam, const Eigen::Vector3d &point, double &px, double &py, double &pz) {
  const Eigen::Matrix3d &R = cam.camFromWorld_R;
  const Eigen::Vector3d &t = cam.camFromWorld_t;
  px = R(0, 0) * point(0) + R(0, 1) * point(1) + R(0, 2) * point(2) + t(0);
  py = R(1, 0) * point(0) + R(1, 1) * point(1) + R(1, 2) * point(2) + t(1);
  pz = R(2, 0) * point(0) + R(2, 1) * point(1) + R(2, 2) * point(2) + t(2);
}

MSTRI_INLINE double huberCost(double r, double delta) {
  return r <= delta ? 0.5 * r * r : delta * (r - 0.5 * delta);
}

/// Robust cost of `point` and (optionally) the Gauss–Newton system, on residuals measured on the
/// normalised image plane and scaled by the focal lengths (pixels, up to the lens distortion).
///
/// Each view's residual is divided by its `lsScale` (pixels, or noise units with per-camera noise).
/// When `views` is writable (`errorsOut`), each used view's `error` receives the residual norm in pixels
/// and `worst` the index of the largest in units of its `gateScale` (a view with the point behind it
/// makes the call return false with that view as the worst).
MSTRI_INLINE bool evaluate(const CameraModel *cameras, const std::vector<View> &views,
                           const Eigen::Vector3d &point, double delta, double &cost, Eigen::Matrix3d *H,
                           Eigen::Vector3d *g, std::vector<View> *errorsOut = nullptr, int *worst = nullptr) {
  cost = 0;
  double worstError = -1;
  if (worst) *worst = -1;
  if (H) H->setZero();
  if (g) g->setZero();
  for (size_t i = 0; i < views.size(); ++i) {
    const View &view = views[i];
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Matrix3d &R = cam.camFromWorld_R;
    double px, py, pz;
    toCamera(cam, point, px, py, pz);
    if (!(pz > 1e-9)) {
      if (errorsOut) (*errorsOut)[i].error = INFINITY;
      if (worst) *worst = int(i);
      return false;
    }
    const double iz = 1 / pz, xz = px * iz, yz = py * iz;
    const double ls = view.invLsScale;
    const double rx = ls * cam.fx * (xz - view.xn), ry = ls * cam.fy * (yz - view.yn);
    const double norm = std::sqrt(rx * rx + ry * ry);
    if (errorsOut) (*errorsOut)[i].error = norm * view.lsScale;
    const double gated = norm * view.lsScale / view.gateScale;
    if (worst && gated > worstError) {
      worstError = gated;
      *worst = int(i);
    }
    cost += view.weight * huberCost(norm, delta);
    if (H && g) {
      // J = diag(fx, fy)/z · [[1, 0, −x/z], [0, 1, −y/z]] · R, written out row by row.
      const double ax = ls * cam.fx * iz, ay = ls * cam.fy * iz;
      double j0[3], j1[3];
      for (int k = 0; k < 3; ++k) {
        j0[k] = ax * (R(0, k) - xz * R(2, k));
        j1[k] = ay * (R(1, k) - yz * R(2, k));
      }
      if (norm <= delta) {
        // Quadratic zone: gradient Jᵀr, curvature JᵀJ.
        const double w = view.weight;
        for (int a = 0; a < 3; ++a) {
          const double w0 = w * j0[a], w1 = w * j1[a];
          for (int b = a; b < 3; ++b) (*H)(a, b) += w0 * j0[b] + w1 * j1[b];
          (*g)(a) += w0 * rx + w1 * ry;
        }
      } else {
        // Linear zone, cost δ(‖r‖ − δ/2): gradient (δ/‖r‖) Jᵀr and Gauss–Newton curvature
        // (δ/‖r‖) Jᵀ(I − r̂r̂ᵀ)J = (δ/‖r‖) p pᵀ with p = Jᵀ r̂⊥ — nothing along r̂ itself (Triggs et al.,
        // "Bundle adjustment — a modern synthesis", 2000, §4.3). Reweighting alone (IRLS: (δ/‖r‖) JᵀJ)
        // overstates that curvature, shortens every step and converges only linearly.
        const double w = view.weight * delta / norm;
        const double nx = -ry / norm, ny = rx / norm;  // r̂⊥
        double q[3];
        for (int k = 0; k < 3; ++k) q[k] = j0[k] * nx + j1[k] * ny;
        for (int a = 0; a < 3; ++a) {
          const double wq = w * q[a];
          for (int b = a; b < 3; ++b) (*H)(a, b) += wq * q[b];
          (*g)(a) += w * (j0[a] * rx + j1[a] * ry);
        }
      }
    }
  }
  if (H) mirrorUpper(*H);
  return std::isfinite(cost);
}

/// Pixel reprojection error of `point` in every view, used or not (the lens distortion included), and,
/// when `cost` is given, the robust cost `evaluate` would give over the used views; false if the point
/// is behind a used view's camera.
MSTRI_INLINE bool measure(const CameraModel *cameras, std::vector<View> &views, const Eigen::Vector3d &point,
                          double delta, double *cost) {
  bool inFront = true;
  if (cost) *cost = 0;
  for (View &view : views) {
    const CameraModel &cam = cameras[view.camera];
    double px, py, pz;
    toCamera(cam, point, px, py, pz);
    if (!(pz > 1e-9)) {
      view.error = INFINITY;
      if (view.used) inFront = false;
      continue;
    }
    const double iz = 1 / pz, xz = px * iz, yz = py * iz;
    if (cost && view.used) {
      const double rx = cam.fx * (xz - view.xn) / view.lsScale, ry = cam.fy * (yz - view.yn) / view.lsScale;
      *cost += view.weight * huberCost(std::sqrt(rx * rx + ry * ry), delta);
    }
    double u, v;
    cam.toPixel(xz, yz, u, v);
    view.error = std::sqrt((u - view.u) * (u - view.u) + (v - view.v) * (v - view.v));
    if (!std::isfinite(view.error)) view.error = INFINITY;
  }
  return inFront;
}

/// Steps shorter than this (metres) are taken without another pass over the views; the pass that
/// measures the final reprojection errors checks them instead (`triangulatePoint`). With the exact
/// curvature, a Gauss–Newton step from within 30 µm of the optimum lands within a few tens of
/// nanometres of it: the quadratic term, |step|² / depth, is 0.2 nm at 4 m, and the residual term the
/// Gauss–Newton model leaves out adds about residual/f ≈ 1e-3 of the step (measured on noisy 8-view
/// points: at most 50 nm from an independent minimiser, RobustRefinementTests).
constexpr double kDeferredStep = 3e-5;

/// Levenberg–Marquardt on the Huber loss of the reprojection error, with the loss's exact Gauss–Newton
/// curvature (see `evaluate`), so it converges quadratically near the optimum. Each
/// evaluation computes cost, gradient and Gauss–Newton matrix at once, so an accepted step costs one
/// pass over the views. `cost`, `H` and `g` must hold the evaluation at `point`.
/// - Returns: true when the last step taken is shorter than `kDeferredStep` and was not measured;
///   `checked` and `checkedCost` then hold the last measured point and its cost, for the caller to
///   fall back on if the final pass finds the cost went up.
MSTRI_INLINE bool refine(const CameraModel *cameras, const std::vector<View> &views,
                         const mstri_options &options, double delta, Eigen::Vector3d &point, double cost, Eigen::Matrix3d H,
                         Eigen::Vector3d g, Eigen::Vector3d &checked, double &checkedCost) {
  double lambda = 1e-3;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (g.squaredNorm() < 1e-28) return false;
    bool accepted = false;
    for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
      Eigen::Matrix3d damped = H;
      damped.diagonal() *= 1 + lambda;
      Eigen::Vector3d step;
      if (!solveSPD3(damped, -g, step, 1e-300)) return false;
      if (step.squaredNorm() < kDeferredStep * kDeferredStep) {
        checked = point;
        checkedCost = cost;
        point += step;
        return true;
      }
      const Eigen::Vector3d candidate = point + step;
      double newCost;
      Eigen::Matrix3d newH;
      Eigen::Vector3d newG;
      if (evaluate(cameras, views, candidate, delta, newCost, &newH, &newG) &&
          newCost <= cost) {
        // Stop when the cost falls by less than 1e-6 of itself.
        const bool converged = cost - newCost <= 1e-6 * cost;
        point = candidate;
        cost = newCost;
        H = newH;
        g = newG;
        lambda = std::max(lambda * 0.1, 1e-9);
        accepted = true;
        if (converged) return false;
      } else {
        lambda *= 10;
      }
    }
    if (!accepted) return false;
  }
  return false;
}

/// Whether the used views' rays span at least `minAngle` (largest pairwise angle). Rays are made
/// on demand: the first pair usually settles it, so most views never need theirs.
MSTRI_INLINE bool raysSpreadEnough(const CameraModel *cameras, std::vector<View> &views, double minAngle) {
  // cos is costly next to the dot products; small angles (the usual limit) use 1 − θ²/2 + θ⁴/24.
  const double a2 = minAngle * minAngle;
  const double cosLimit = minAngle < 1e-2 ? 1 - a2 / 2 + a2 * a2 / 24 : std::cos(minAngle);
  auto ray = [&](View &view) -> const Eigen::Vector3d & {
    if (!view.hasRay) {
      view.ray = (cameras[view.camera].camFromWorld_R.transpose() * Eigen::Vector3d(view.xn, view.yn, 1)).normalized();
      view.hasRay = true;
    }
    return view.ray;
  };
  for (size_t i = 0; i < views.size(); ++i) {
    if (!views[i].used) continue;
    for (size_t j = i + 1; j < views.size(); ++j) {
      if (views[j].used && ray(views[i]).dot(ray(views[j])) < cosLimit) return true;
    }
  }
  return false;
}

/// Huber's constant for 95 % efficiency under Gaussian noise, in noise units (Huber 1964; Holland &
/// Welsch, "Robust regression using iteratively reweighted least-squares", 1977).
constexpr double kHuberSigmas = 1.345;

/// Views up to which every subset is tried when the worst-first rejection drops any (2⁶ DLT solves).
constexpr size_t kSubsetSearchViews = 6;

/// After the worst-first rejection kept `kept` views: the largest subset of more than `kept` views whose
/// residuals all lie within `gate` (in gate units), least robust cost among subsets of that size. On
/// success the views' `used` flags, `point`, `cost`, `H` and `g` describe it and the size is returned;
/// otherwise 0 and the caller restores its own set.
MSTRI_INLINE int largestConsistentSubset(const CameraModel *cameras, std::vector<View> &views,
                                         const mstri_options &options, double gate, double delta, int kept,
                                         Eigen::Vector3d &point, double &cost, Eigen::Matrix3d &H,
                                         Eigen::Vector3d &g) {
  const int n = int(views.size());
  for (int size = n - 1; size > kept; --size) {
    unsigned bestMask = 0;
    double bestCost = INFINITY;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      if (__builtin_popcount(mask) != size) continue;
      for (int i = 0; i < n; ++i) views[i].used = (mask >> i) & 1u;
      Eigen::Vector3d candidate;
      if (!raysSpreadEnough(cameras, views, options.min_ray_angle) || !linearTriangulate(cameras, views, candidate)) {
        continue;
      }
      double c;
      int worst;
      if (!evaluate(cameras, views, candidate, delta, c, nullptr, nullptr, &views, &worst) || worst < 0) continue;
      if (views[worst].error / views[worst].gateScale > gate) continue;
      if (c < bestCost) {
        bestCost = c;
        bestMask = mask;
      }
    }
    if (bestMask == 0) continue;
    for (int i = 0; i < n; ++i) views[i].used = (bestMask >> i) & 1u;
    if (!linearTriangulate(cameras, views, point)) return 0;
    evaluate(cameras, views, point, delta, cost, &H, &g);
    return size;
  }
  return 0;
}

/// Triangulates one point from `views` (which it updates: `used`, `error`). With per-camera noise
/// scales (`scaled`), the gate and the Huber scale are in noise units and a subset search follows the
/// worst-first rejection (see `mstri_triangulate_scaled`).
MSTRI_INLINE PointEstimate triangulatePoint(const CameraModel *cameras, std::vector<View> &views,
                                            const mstri_options &options, bool scaled) {
  PointEstimate result;
  const double gate = scaled ? options.gate_sigmas : options.max_reprojection_px;
  const double delta = scaled && options.noise_weighting ? kHuberSigmas : options.huber_px;
  int usedCount = 0;
  for (View &view : views) {
    view.used = true;
    ++usedCount;
  }
  if (usedCount < 2) return result;
  if (!raysSpreadEnough(cameras, views, options.min_ray_angle)) {
    result.status = MSTRI_DEGENERATE;
    return result;
  }
  Eigen::Vector3d point, g;
  Eigen::Matrix3d H;
  double cost = 0;
  for (;;) {
    if (!linearTriangulate(cameras, views, point)) {
      result.status = MSTRI_DEGENERATE;
      return result;
    }
    if (!options.robust) break;
    // Robust: drop the worst used view while it is over the threshold (behind counts as infinite).
    // The residuals are on the normalised plane scaled by the focal lengths: pixels up to distortion.
    int worst;
    const bool inFront = evaluate(cameras, views, point, delta, cost, &H, &g, &views, &worst);
    if (worst < 0) {
      result.status = MSTRI_NOT_CONVERGED;  // a non-finite residual without a culprit
      return result;
    }
    const double worstError = inFront ? views[worst].error / views[worst].gateScale : INFINITY;
    if (worstError <= gate) break;
    if (usedCount <= options.min_views) {
      result.status = inFront ? MSTRI_INCONSISTENT : MSTRI_BEHIND_CAMERA;
      return result;
    }
    views[worst].used = false;
    --usedCount;
    if (!raysSpreadEnough(cameras, views, options.min_ray_angle)) {
      result.status = MSTRI_DEGENERATE;
      return result;
    }
  }
  if (scaled && options.robust && usedCount < int(views.size()) && views.size() <= kSubsetSearchViews) {
    std::vector<bool> greedy(views.size());
    for (size_t i = 0; i < views.size(); ++i) greedy[i] = views[i].used;
    const Eigen::Vector3d greedyPoint = point;
    const double greedyCost = cost;
    const Eigen::Matrix3d greedyH = H;
    const Eigen::Vector3d greedyG = g;
    const int size = largestConsistentSubset(cameras, views, options, gate, delta, usedCount, point, cost, H, g);
    if (size > 0) {
      usedCount = size;
    } else {
      for (size_t i = 0; i < views.size(); ++i) views[i].used = greedy[i];
      point = greedyPoint;
      cost = greedyCost;
      H = greedyH;
      g = greedyG;
    }
  }
  bool deferred = false;
  Eigen::Vector3d checked;
  double checkedCost = 0;
  if (options.robust && options.max_iterations > 0) {
    deferred = refine(cameras, views, options, delta, point, cost, H, g, checked, checkedCost);
  }
  // The final cost is only needed to check an unmeasured last step.
  double finalCost = 0;
  bool inFront = measure(cameras, views, point, delta, deferred ? &finalCost : nullptr);
  if (deferred && !(inFront && finalCost <= checkedCost)) {
    // The unmeasured last step did not pay off (rare: a strongly non-linear neighbourhood): undo it.
    point = checked;
    inFront = measure(cameras, views, point, delta, nullptr);
  }
  if (!inFront) {
    result.status = MSTRI_BEHIND_CAMERA;
    return result;
  }
  double sum = 0;
  for (const View &view : views) {
    if (view.used) sum += view.error;
  }
  result.status = MSTRI_OK;
  result.point = point;
  result.meanError = sum / usedCount;
  return result;
}

}  // namespace

MSTRI_MULTIVERSION void triangulateRange(const Batch &b, size_t begin, size_t end) {
  std::vector<View> views;
  views.reserve(b.cameraCount);
  const bool weighted = b.options->confidence_weighting != 0;
  for (size_t p = begin; p < end; ++p) {
    views.clear();
    const double *obs = b.observations + 3 * p * b.cameraCount;
    for (size_t c = 0; c < b.cameraCount; ++c) {
      const double u = obs[3 * c], v = obs[3 * c + 1], conf = obs[3 * c + 2];
      if (!(conf > 0) || conf < b.options->min_confidence || !std::isfinite(u) || !std::isfinite(v) ||
          !std::isfinite(conf)) {
        continue;
      }
      View view;
      view.camera = int(c);
      view.u = u;
      view.v = v;
      if (!b.cameras[c].toNormalised(u, v, view.xn, view.yn)) continue;  // outside the lens model's range
      view.weight = weighted ? conf : 1.0;
      view.gateScale = b.noisePx ? b.noisePx[c] : 1.0;
      view.lsScale = b.noisePx && b.options->noise_weighting ? b.noisePx[c] : 1.0;
      view.invLsScale = 1 / view.lsScale;
      view.dltScale = b.noisePx && b.options->noise_weighting ? b.cameras[c].fx / b.noisePx[c] : 1.0;
      view.used = false;
      view.hasRay = false;
      view.error = -1;
      views.push_back(view);
    }
    const PointEstimate estimate = triangulatePoint(b.cameras, views, *b.options, b.noisePx != nullptr);
    const bool ok = estimate.status == MSTRI_OK;
    for (int k = 0; k < 3; ++k) b.points[3 * p + k] = ok ? estimate.point(k) : 0.0;
    if (b.meanReprojection) b.meanReprojection[p] = ok ? estimate.meanError : -1.0;
    if (b.status) b.status[p] = estimate.status;
    if (b.reprojection || b.usedViews) {
      double *rep = b.reprojection ? b.reprojection + p * b.cameraCount : nullptr;
      uint8_t *used = b.usedViews ? b.usedViews + p * b.cameraCount : nullptr;
      for (size_t c = 0; c < b.cameraCount; ++c) {
        if (rep) rep[c] = -1;
        if (used) used[c] = 0;
      }
      for (const View &view : views) {
        if (rep && ok && std::isfinite(view.error)) rep[view.camera] = view.error;
        if (used && ok && view.used) used[view.camera] = 1;
      }
    }
  }
}

}  // namespace mstri
