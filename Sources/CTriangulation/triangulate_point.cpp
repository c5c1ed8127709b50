// Weighted DLT, view rejection and Levenberg–Marquardt refinement of one 3D point.
// References: R. Hartley and A. Zisserman, Multiple View Geometry in Computer Vision, 2nd ed., 2004,
// §12.2 (linear triangulation, inhomogeneous form); J. J. Moré, "The Levenberg–Marquardt algorithm: implementation and
// theory", Numerical Analysis, LNM 630, 1978; P. J. Huber, "Robust estimation of a location
// parameter", Ann. Math. Statist. 35(1), 1964.
#include "triangulate_point.hpp"

#include <algorithm>
#include <cmath>

namespace mstri {
namespace {

/// Solves A x = b for a symmetric positive definite 3×3 A by an unrolled Cholesky factorisation
/// (Eigen's generic LDLT is several times slower at this size). False when A is not safely positive
/// definite: a pivot at or below `relativeFloor` times the largest diagonal entry.
inline bool solveSPD3(const Eigen::Matrix3d &A, const Eigen::Vector3d &b, Eigen::Vector3d &x,
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

/// Weighted linear triangulation over the used views, in its inhomogeneous form (H&Z §12.2: the
/// DLT rows with X = (x, y, z, 1)), solved from the 3×3 normal equations. False when the system is
/// singular, i.e. the point is at infinity or the rays do not constrain it.
bool linearTriangulate(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
                       Eigen::Vector3d &point) {
  Eigen::Matrix3d normal = Eigen::Matrix3d::Zero();
  Eigen::Vector3d rhs = Eigen::Vector3d::Zero();
  for (const View &view : views) {
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Matrix3d &R = cam.camFromWorld_R;
    const Eigen::Vector3d &t = cam.camFromWorld_t;
    const double w2 = view.weight * view.weight;
    const Eigen::Vector3d a1 = view.xn * R.row(2).transpose() - R.row(0).transpose();
    const Eigen::Vector3d a2 = view.yn * R.row(2).transpose() - R.row(1).transpose();
    const double b1 = t(0) - view.xn * t(2), b2 = t(1) - view.yn * t(2);
    for (int i = 0; i < 3; ++i) {
      for (int j = i; j < 3; ++j) normal(i, j) += w2 * (a1(i) * a1(j) + a2(i) * a2(j));
    }
    rhs.noalias() += w2 * (a1 * b1 + a2 * b2);
  }
  normal(1, 0) = normal(0, 1);
  normal(2, 0) = normal(0, 2);
  normal(2, 1) = normal(1, 2);
  // Near-singular systems (rays that do not pin the point down) fail here.
  return solveSPD3(normal, rhs, point);
}

/// Pixel reprojection error of `point` in every view (used or not); false if behind a used view's camera.
bool measure(const std::vector<CameraModel> &cameras, std::vector<View> &views,
             const Eigen::Vector3d &point) {
  bool inFront = true;
  for (View &view : views) {
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Vector3d p = cam.camFromWorld_R * point + cam.camFromWorld_t;
    if (!(p.z() > 1e-9)) {
      view.error = INFINITY;
      if (view.used) inFront = false;
      continue;
    }
    double u, v;
    cam.toPixel(p.x() / p.z(), p.y() / p.z(), u, v);
    view.error = std::sqrt((u - view.u) * (u - view.u) + (v - view.v) * (v - view.v));
    if (!std::isfinite(view.error)) view.error = INFINITY;
  }
  return inFront;
}

double huberCost(double r, double delta) {
  return r <= delta ? 0.5 * r * r : delta * (r - 0.5 * delta);
}

/// Robust cost of `point` and (optionally) the Gauss–Newton system, on residuals measured on the
/// normalised image plane and scaled by the focal lengths (pixels, up to the lens distortion).
///
/// When `views` is writable (`errorsOut`), each used view's `error` receives the residual norm and
/// `worst` the index of the largest (a view with the point behind it makes the call return false
/// with that view as the worst).
bool evaluate(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
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
    const Eigen::Vector3d p = cam.camFromWorld_R * point + cam.camFromWorld_t;
    if (!(p.z() > 1e-9)) {
      if (errorsOut) (*errorsOut)[i].error = INFINITY;
      if (worst) *worst = int(i);
      return false;
    }
    const double iz = 1 / p.z();
    const Eigen::Vector2d r(cam.fx * (p.x() * iz - view.xn), cam.fy * (p.y() * iz - view.yn));
    const double norm = r.norm();
    if (errorsOut) (*errorsOut)[i].error = norm;
    if (worst && norm > worstError) {
      worstError = norm;
      *worst = int(i);
    }
    cost += view.weight * huberCost(norm, delta);
    if (H && g) {
      // J = diag(fx, fy)/z · [[1, 0, −x/z], [0, 1, −y/z]] · R, written out row by row.
      const double w = view.weight * (norm <= delta ? 1 : delta / norm);
      const Eigen::Matrix3d &R = cam.camFromWorld_R;
      const double xz = p.x() * iz, yz = p.y() * iz, ax = cam.fx * iz, ay = cam.fy * iz;
      const Eigen::Vector3d j0 = ax * (R.row(0).transpose() - xz * R.row(2).transpose());
      const Eigen::Vector3d j1 = ay * (R.row(1).transpose() - yz * R.row(2).transpose());
      for (int a = 0; a < 3; ++a) {
        for (int b = a; b < 3; ++b) (*H)(a, b) += w * (j0(a) * j0(b) + j1(a) * j1(b));
      }
      g->noalias() += w * (j0 * r(0) + j1 * r(1));
    }
  }
  if (H) {
    (*H)(1, 0) = (*H)(0, 1);
    (*H)(2, 0) = (*H)(0, 2);
    (*H)(2, 1) = (*H)(1, 2);
  }
  return std::isfinite(cost);
}

/// Levenberg–Marquardt on the Huber-weighted reprojection error (IRLS weights per iteration). Each
/// evaluation computes cost, gradient and Gauss–Newton matrix at once, so an accepted step costs one
/// pass over the views.
/// `cost`, `H` and `g` must hold the evaluation at `point`.
void refine(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
            const mstri_options &options, Eigen::Vector3d &point, double cost, Eigen::Matrix3d H,
            Eigen::Vector3d g) {
  double lambda = 1e-3;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (g.norm() < 1e-14) break;
    bool accepted = false;
    for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
      Eigen::Matrix3d damped = H;
      damped.diagonal() *= 1 + lambda;
      Eigen::Vector3d step;
      if (!solveSPD3(damped, -g, step, 1e-300)) return;
      const Eigen::Vector3d candidate = point + step;
      // A step below the 10 µm stop (see below) is taken without another pass over the views: the
      // quadratic model it comes from is exact to far below that scale.
      if (step.squaredNorm() < 1e-10) {
        point = candidate;
        return;
      }
      double newCost;
      Eigen::Matrix3d newH;
      Eigen::Vector3d newG;
      if (evaluate(cameras, views, candidate, options.huber_px, newCost, &newH, &newG) &&
          newCost <= cost) {
        // Stop at a step below 10 µm (a fraction of any camera's pixel footprint at sports
        // distances) or when the cost falls by less than 1e-6 of itself.
        const bool converged = step.squaredNorm() < 1e-10 || cost - newCost <= 1e-6 * cost;
        point = candidate;
        cost = newCost;
        H = newH;
        g = newG;
        lambda = std::max(lambda * 0.1, 1e-9);
        accepted = true;
        if (converged) return;
      } else {
        lambda *= 10;
      }
    }
    if (!accepted) return;
  }
}

/// Whether the used views' rays span at least `minAngle` (largest pairwise angle). Rays are made
/// on demand: the first pair usually settles it, so most views never need theirs.
bool raysSpreadEnough(const std::vector<CameraModel> &cameras, std::vector<View> &views, double minAngle) {
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

}  // namespace

PointEstimate triangulatePoint(const std::vector<CameraModel> &cameras, std::vector<View> &views,
                               const mstri_options &options) {
  PointEstimate result;
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
    if (!options.robust) {
      if (!measure(cameras, views, point)) {
        result.status = MSTRI_BEHIND_CAMERA;
        return result;
      }
      break;
    }
    // Robust: drop the worst used view while it is over the threshold (behind counts as infinite).
    // The residuals are on the normalised plane scaled by the focal lengths: pixels up to distortion.
    int worst;
    const bool inFront = evaluate(cameras, views, point, options.huber_px, cost, &H, &g, &views, &worst);
    if (worst < 0) {
      result.status = MSTRI_NOT_CONVERGED;  // a non-finite residual without a culprit
      return result;
    }
    const double worstError = inFront ? views[worst].error : INFINITY;
    if (worstError <= options.max_reprojection_px) break;
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
  if (options.robust) {
    if (options.max_iterations > 0) refine(cameras, views, options, point, cost, H, g);
    if (!measure(cameras, views, point)) {
      result.status = MSTRI_BEHIND_CAMERA;
      return result;
    }
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

}  // namespace mstri
