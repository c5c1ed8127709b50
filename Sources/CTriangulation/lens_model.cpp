// Unpacking camera records, and the general (fisheye) inverse of the lens model. The models and their
// references are in lens_model.hpp.
#include "lens_model.hpp"

#include <Eigen/LU>

namespace mstri {

bool CameraModel::from(const double *r, CameraModel &c) {
  for (int i = 0; i < MSTRI_CAMERA_STRIDE; ++i) {
    if (!std::isfinite(r[i])) return false;
  }
  const double model = r[MSTRI_CAM_MODEL];
  if (model != MSTRI_LENS_PINHOLE && model != MSTRI_LENS_FISHEYE) return false;
  c.fisheye = model == MSTRI_LENS_FISHEYE;
  c.fx = r[MSTRI_CAM_FX];
  c.fy = r[MSTRI_CAM_FY];
  c.cx = r[MSTRI_CAM_CX];
  c.cy = r[MSTRI_CAM_CY];
  c.skew = r[MSTRI_CAM_SKEW];
  if (!(c.fx > 0) || !(c.fy > 0)) return false;
  c.hasDistortion = false;
  for (int i = 0; i < 5; ++i) {
    c.d[i] = r[MSTRI_CAM_DIST + i];
    if (c.d[i] != 0) c.hasDistortion = true;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) c.camFromWorld_R(i, j) = r[MSTRI_CAM_R + 3 * i + j];
    c.camFromWorld_t(i) = r[MSTRI_CAM_T + i];
  }
  c.center_world = -c.camFromWorld_R.transpose() * c.camFromWorld_t;
  // Series reversion of r_d = r (1 + k1 r² + k2 r⁴ + k3 r⁶) (Drap & Lefèvre 2016, eq. 13).
  const double k1 = c.d[0], k2 = c.d[1], k3 = c.d[4];
  const double k1_2 = k1 * k1;
  c.inverseRadial[0] = -k1;
  c.inverseRadial[1] = 3 * k1_2 - k2;
  c.inverseRadial[2] = -12 * k1_2 * k1 + 8 * k1 * k2 - k3;
  c.inverseRadial[3] = 55 * k1_2 * k1_2 - 55 * k1_2 * k2 + 10 * k1 * k3 + 5 * k2 * k2;
  c.inverseRadial[4] = -273 * k1_2 * k1_2 * k1 + 364 * k1_2 * k1 * k2 - 78 * k1_2 * k3 - 78 * k1 * k2 * k2 + 12 * k2 * k3;
  return true;
}

/// Gauss–Newton on the forward model for any lens (the fisheye path), from the distorted point itself;
/// the best iterate is kept. Same contract as `toNormalised`.
bool CameraModel::undistortGeneral(double xd, double yd, double &x, double &y) const {
  x = xd;
  y = yd;
  double bestResidual2 = INFINITY, bestX = x, bestY = y;
  for (int iteration = 0; iteration < 30; ++iteration) {
    double fxd, fyd;
    Eigen::Matrix2d J;
    distortNormalised(x, y, fxd, fyd, &J);
    const double ex = fxd - xd, ey = fyd - yd;
    const double residual2 = ex * ex + ey * ey;
    if (residual2 < bestResidual2) {
      bestResidual2 = residual2;
      bestX = x;
      bestY = y;
    }
    if (residual2 < 1e-24) break;  // residual < 1e-12: ~1e-9 px at f = 1000 px
    const double det = J(0, 0) * J(1, 1) - J(0, 1) * J(1, 0);
    if (!(std::abs(det) > 1e-12)) break;
    const double dx = (J(1, 1) * ex - J(0, 1) * ey) / det;
    const double dy = (-J(1, 0) * ex + J(0, 0) * ey) / det;
    x -= dx;
    y -= dy;
    if (!std::isfinite(x) || !std::isfinite(y)) break;
  }
  x = bestX;
  y = bestY;
  return bestResidual2 < 1e-24;
}

}  // namespace mstri
