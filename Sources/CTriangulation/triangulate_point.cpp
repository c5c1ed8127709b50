// Weighted DLT, view rejection and Levenberg–Marquardt refinement of one 3D point.
// References: R. Hartley and A. Zisserman, Multiple View Geometry in Computer Vision, 2nd ed., 2004,
// §12.2 (linear triangulation, inhomogeneous form); J. J. Moré, "The Levenberg–Marquardt algorithm: implementation and
// theory", Numerical Analysis, LNM 630, 1978; P. J. Huber, "Robust estimation of a location
// parameter", Ann. Math. Statist. 35(1), 1964.
#include "triangulate_point.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace mstri {
namespace {

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
    normal.noalias() += w2 * (a1 * a1.transpose() + a2 * a2.transpose());
    rhs.noalias() += w2 * (a1 * b1 + a2 * b2);
  }
  const Eigen::LDLT<Eigen::Matrix3d> ldlt(normal);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) return false;
  // Reject near-singular systems: the smallest pivot against the largest.
  const Eigen::Vector3d pivots = ldlt.vectorD().cwiseAbs();
  if (!(pivots.minCoeff() > 1e-14 * pivots.maxCoeff())) return false;
  point = ldlt.solve(rhs);
  return point.allFinite();
}

/// Approximate pixel errors (normalised residual × focal length, lens distortion ignored) of the used
/// views, cheap enough for the rejection loop. Returns the index of the worst used view (behind a
/// camera counts as infinite) and whether every used view has the point in front.
int worstView(const std::vector<CameraModel> &cameras, std::vector<View> &views,
              const Eigen::Vector3d &point, double &worstError) {
  int worst = -1;
  worstError = -1;
  for (size_t i = 0; i < views.size(); ++i) {
    View &view = views[i];
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Vector3d p = cam.camFromWorld_R * point + cam.camFromWorld_t;
    double e = INFINITY;
    if (p.z() > 1e-9) {
      const double iz = 1 / p.z();
      const double ex = cam.fx * (p.x() * iz - view.xn), ey = cam.fy * (p.y() * iz - view.yn);
      e = std::sqrt(ex * ex + ey * ey);
    }
    view.error = e;
    if (e > worstError) {
      worstError = e;
      worst = int(i);
    }
  }
  return worst;
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
bool evaluate(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
              const Eigen::Vector3d &point, double delta, double &cost, Eigen::Matrix3d *H,
              Eigen::Vector3d *g) {
  cost = 0;
  if (H) H->setZero();
  if (g) g->setZero();
  for (const View &view : views) {
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    const Eigen::Vector3d p = cam.camFromWorld_R * point + cam.camFromWorld_t;
    if (!(p.z() > 1e-9)) return false;
    const double iz = 1 / p.z();
    const Eigen::Vector2d r(cam.fx * (p.x() * iz - view.xn), cam.fy * (p.y() * iz - view.yn));
    const double norm = r.norm();
    cost += view.weight * huberCost(norm, delta);
    if (H && g) {
      const double w = view.weight * (norm <= delta ? 1 : delta / norm);
      Eigen::Matrix<double, 2, 3> dProj;
      dProj << cam.fx * iz, 0, -cam.fx * p.x() * iz * iz, 0, cam.fy * iz, -cam.fy * p.y() * iz * iz;
      const Eigen::Matrix<double, 2, 3> J = dProj * cam.camFromWorld_R;
      H->noalias() += w * J.transpose() * J;
      g->noalias() += w * J.transpose() * r;
    }
  }
  return std::isfinite(cost);
}

/// Levenberg–Marquardt on the Huber-weighted reprojection error (IRLS weights per iteration). Each
/// evaluation computes cost, gradient and Gauss–Newton matrix at once, so an accepted step costs one
/// pass over the views.
void refine(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
            const mstri_options &options, Eigen::Vector3d &point) {
  double lambda = 1e-3, cost;
  Eigen::Matrix3d H;
  Eigen::Vector3d g;
  if (!evaluate(cameras, views, point, options.huber_px, cost, &H, &g)) return;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (g.norm() < 1e-14) break;
    bool accepted = false;
    for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
      Eigen::Matrix3d damped = H;
      damped.diagonal() *= 1 + lambda;
      const Eigen::Vector3d step = damped.ldlt().solve(-g);
      if (!step.allFinite()) return;
      const Eigen::Vector3d candidate = point + step;
      double newCost;
      Eigen::Matrix3d newH;
      Eigen::Vector3d newG;
      if (evaluate(cameras, views, candidate, options.huber_px, newCost, &newH, &newG) &&
          newCost <= cost) {
        // Stop at a nanometre-scale step or when the cost no longer falls measurably.
        const bool converged =
            step.norm() < 1e-9 * (1 + point.norm()) || cost - newCost <= 1e-12 * cost;
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

/// Whether the used views' rays span at least `minAngle` (largest pairwise angle).
bool raysSpreadEnough(const std::vector<View> &views, double minAngle) {
  const double cosLimit = std::cos(minAngle);
  for (size_t i = 0; i < views.size(); ++i) {
    if (!views[i].used) continue;
    for (size_t j = i + 1; j < views.size(); ++j) {
      if (views[j].used && views[i].ray.dot(views[j].ray) < cosLimit) return true;
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
  if (!raysSpreadEnough(views, options.min_ray_angle)) {
    result.status = MSTRI_DEGENERATE;
    return result;
  }
  Eigen::Vector3d point;
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
    double worstError;
    const int worst = worstView(cameras, views, point, worstError);
    if (worstError <= options.max_reprojection_px) break;
    if (usedCount <= options.min_views) {
      result.status = std::isfinite(worstError) ? MSTRI_INCONSISTENT : MSTRI_BEHIND_CAMERA;
      return result;
    }
    views[worst].used = false;
    --usedCount;
    if (!raysSpreadEnough(views, options.min_ray_angle)) {
      result.status = MSTRI_DEGENERATE;
      return result;
    }
  }
  if (options.robust) {
    if (options.max_iterations > 0) refine(cameras, views, options, point);
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
