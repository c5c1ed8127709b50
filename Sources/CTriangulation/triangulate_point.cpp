// Weighted DLT, view rejection and Levenberg–Marquardt refinement of one 3D point.
// References: R. Hartley and A. Zisserman, Multiple View Geometry in Computer Vision, 2nd ed., 2004,
// §12.2 (linear triangulation); J. J. Moré, "The Levenberg–Marquardt algorithm: implementation and
// theory", Numerical Analysis, LNM 630, 1978; P. J. Huber, "Robust estimation of a location
// parameter", Ann. Math. Statist. 35(1), 1964.
#include "triangulate_point.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace mstri {
namespace {

/// Homogeneous weighted DLT over the used views. False when the solution is at infinity.
bool linearTriangulate(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
                       Eigen::Vector3d &point) {
  Eigen::Matrix4d normal = Eigen::Matrix4d::Zero();
  for (const View &view : views) {
    if (!view.used) continue;
    const CameraModel &cam = cameras[view.camera];
    Eigen::Matrix<double, 3, 4> P;
    P.leftCols<3>() = cam.camFromWorld_R;
    P.col(3) = cam.camFromWorld_t;
    const Eigen::Matrix<double, 1, 4> r1 = view.weight * (view.xn * P.row(2) - P.row(0));
    const Eigen::Matrix<double, 1, 4> r2 = view.weight * (view.yn * P.row(2) - P.row(1));
    normal.noalias() += r1.transpose() * r1;
    normal.noalias() += r2.transpose() * r2;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> solver(normal);
  if (solver.info() != Eigen::Success) return false;
  const Eigen::Vector4d X = solver.eigenvectors().col(0);
  if (!(std::abs(X(3)) > 1e-12 * X.head<3>().norm())) return false;
  point = X.head<3>() / X(3);
  return point.allFinite();
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
    view.error = std::hypot(u - view.u, v - view.v);
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

/// Levenberg–Marquardt on the Huber-weighted reprojection error (IRLS weights per iteration).
void refine(const std::vector<CameraModel> &cameras, const std::vector<View> &views,
            const mstri_options &options, Eigen::Vector3d &point) {
  double lambda = 1e-3, cost;
  if (!evaluate(cameras, views, point, options.huber_px, cost, nullptr, nullptr)) return;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    Eigen::Matrix3d H;
    Eigen::Vector3d g;
    double ignored;
    evaluate(cameras, views, point, options.huber_px, ignored, &H, &g);
    if (g.norm() < 1e-14) break;
    bool accepted = false;
    for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
      Eigen::Matrix3d damped = H;
      damped.diagonal() *= 1 + lambda;
      const Eigen::Vector3d step = damped.ldlt().solve(-g);
      if (!step.allFinite()) break;
      const Eigen::Vector3d candidate = point + step;
      double newCost;
      if (evaluate(cameras, views, candidate, options.huber_px, newCost, nullptr, nullptr) &&
          newCost <= cost) {
        const bool tiny = step.norm() < 1e-12 * (1 + point.norm());
        point = candidate;
        cost = newCost;
        lambda = std::max(lambda * 0.1, 1e-9);
        accepted = true;
        if (tiny) return;
      } else {
        lambda *= 10;
      }
    }
    if (!accepted) break;
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
    const bool inFront = measure(cameras, views, point);
    if (!options.robust) {
      if (!inFront) {
        result.status = MSTRI_BEHIND_CAMERA;
        return result;
      }
      break;
    }
    // Robust: drop the worst used view while it is over the threshold (behind counts as infinite).
    int worst = -1;
    for (size_t i = 0; i < views.size(); ++i) {
      if (views[i].used && (worst < 0 || views[i].error > views[worst].error)) worst = int(i);
    }
    if (views[worst].error <= options.max_reprojection_px) break;
    if (usedCount <= options.min_views) {
      result.status = inFront ? MSTRI_INCONSISTENT : MSTRI_BEHIND_CAMERA;
      return result;
    }
    views[worst].used = false;
    --usedCount;
    if (!raysSpreadEnough(views, options.min_ray_angle)) {
      result.status = MSTRI_DEGENERATE;
      return result;
    }
  }
  if (options.robust && options.max_iterations > 0) {
    refine(cameras, views, options, point);
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
