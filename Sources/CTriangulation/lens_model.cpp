// OpenCV's pinhole (Brown–Conrady) and fisheye (Kannala–Brandt) lens models, forward and inverse.
// References: D. C. Brown, "Decentering distortion of lenses", Photogrammetric Engineering 32(3), 1966;
// J. Kannala and S. Brandt, "A generic camera model and calibration method for conventional, wide-angle,
// and fish-eye lenses", IEEE TPAMI 28(8), 2006; OpenCV's calib3d documentation for the exact formulas.
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
  return true;
}

void CameraModel::distortNormalised(double x, double y, double &xd, double &yd,
                                    Eigen::Matrix2d *J) const {
  if (!hasDistortion) {
    xd = x;
    yd = y;
    if (J) J->setIdentity();
    return;
  }
  if (!fisheye) {
    const double k1 = d[0], k2 = d[1], p1 = d[2], p2 = d[3], k3 = d[4];
    const double x2 = x * x, y2 = y * y, xy = x * y, r2 = x2 + y2;
    const double radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    xd = x * radial + 2 * p1 * xy + p2 * (r2 + 2 * x2);
    yd = y * radial + p1 * (r2 + 2 * y2) + 2 * p2 * xy;
    if (J) {
      const double dRadial_dr2 = k1 + r2 * (2 * k2 + 3 * k3 * r2);
      (*J)(0, 0) = radial + x * dRadial_dr2 * 2 * x + 2 * p1 * y + p2 * 6 * x;
      (*J)(0, 1) = x * dRadial_dr2 * 2 * y + 2 * p1 * x + p2 * 2 * y;
      (*J)(1, 0) = y * dRadial_dr2 * 2 * x + p1 * 2 * x + 2 * p2 * y;
      (*J)(1, 1) = radial + y * dRadial_dr2 * 2 * y + p1 * 6 * y + 2 * p2 * x;
    }
    return;
  }
  // Fisheye: θ_d = θ (1 + k1 θ² + k2 θ⁴ + k3 θ⁶ + k4 θ⁸), θ = atan(r).
  const double k1 = d[0], k2 = d[1], k3 = d[2], k4 = d[3];
  const double r = std::sqrt(x * x + y * y);
  if (r < 1e-12) {
    xd = x;
    yd = y;
    if (J) J->setIdentity();
    return;
  }
  const double th = std::atan(r), t2 = th * th;
  const double poly = 1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)));
  const double thd = th * poly;
  const double s = thd / r;
  xd = x * s;
  yd = y * s;
  if (J) {
    const double dthd_dth = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)));
    const double dth_dr = 1 / (1 + r * r);
    const double ds_dr = (dthd_dth * dth_dr * r - thd) / (r * r);
    const double dr_dx = x / r, dr_dy = y / r;
    (*J)(0, 0) = s + x * ds_dr * dr_dx;
    (*J)(0, 1) = x * ds_dr * dr_dy;
    (*J)(1, 0) = y * ds_dr * dr_dx;
    (*J)(1, 1) = s + y * ds_dr * dr_dy;
  }
}

bool CameraModel::toNormalised(double u, double v, double &x, double &y) const {
  const double yd = (v - cy) / fy;
  const double xd = (u - cx - skew * yd) / fx;
  x = xd;
  y = yd;
  if (!hasDistortion) return true;
  // Gauss–Newton on the forward model, starting from the first-order inverse of the radial part.
  if (!fisheye) {
    const double r2 = xd * xd + yd * yd;
    const double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
    if (radial > 0.5 && radial < 2) {
      x = xd / radial;
      y = yd / radial;
    }
  }
  // Squared residuals (no square root per iteration). The loop stops as soon as the residual meets
  // the 1e-12 required below: Newton converges quadratically, so iterating on to 1e-14 would cost a
  // whole extra evaluation for a thousandth of a nanopixel.
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
  // 1e-12 in normalised units is about 1e-9 px for a 1000 px focal length.
  return bestResidual2 < 1e-24;
}

}  // namespace mstri
