// Camera records and lens models shared by the kernels (internal to CTriangulation).
// OpenCV's pinhole (Brown–Conrady) and fisheye (Kannala–Brandt) lens models, forward and inverse.
// References: D. C. Brown, "Decentering distortion of lenses", Photogrammetric Engineering 32(3), 1966;
// J. Kannala and S. Brandt, "A generic camera model and calibration method for conventional, wide-angle,
// and fish-eye lenses", IEEE TPAMI 28(8), 2006; OpenCV's calib3d documentation for the exact formulas;
// P. Drap and J. Lefèvre, "An exact formula for calculating inverse radial lens distortions", Sensors
// 16(6):807, 2016 (the series reversion that starts the inverse).
//
// The per-pixel functions are defined here, inline, so that the triangulation loop (compiled once per
// instruction set, see triangulate_point.cpp) gets them inlined in each of its versions.
#ifndef MATCHSCENE_CTRIANGULATION_LENS_MODEL_HPP
#define MATCHSCENE_CTRIANGULATION_LENS_MODEL_HPP

#include <Eigen/Core>
#include <cmath>

#include "CTriangulation.h"

// The inverse lens model is the hottest code of a triangulation (a fifth of the robust benchmark's time).
// Forced inline so that it is compiled into each instruction-set version of the triangulation loop
// (triangulate_point.cpp); as an out-of-line `inline` function the compiler kept one baseline copy,
// without FMA. Remove when the compiler inlines it by itself.
#define MSTRI_LENS_INLINE inline __attribute__((always_inline))

namespace mstri {

/// One camera unpacked from its flat record. Convention: x_cam = camFromWorld_R · x_world + camFromWorld_t.
struct CameraModel {
  bool fisheye = false;
  double fx = 1, fy = 1, cx = 0, cy = 0, skew = 0;
  double d[5] = {0, 0, 0, 0, 0};
  Eigen::Matrix3d camFromWorld_R = Eigen::Matrix3d::Identity();
  Eigen::Vector3d camFromWorld_t = Eigen::Vector3d::Zero();
  Eigen::Vector3d center_world = Eigen::Vector3d::Zero();  ///< −Rᵀ t
  bool hasDistortion = false;
  /// Pinhole: r = r_d (1 + b1 r_d² + … + b5 r_d¹⁰), the series reversion of the radial polynomial
  /// (Drap & Lefèvre 2016, eq. 13); only a starting point for Newton's method, never the answer.
  double inverseRadial[5] = {0, 0, 0, 0, 0};

  /// Unpacks and checks a record: finite values, positive focal lengths, a known model.
  static bool from(const double *record, CameraModel &out);

  /// Normalised undistorted (x, y) → distorted normalised (xd, yd), with its 2×2 Jacobian if asked.
  inline void distortNormalised(double x, double y, double &xd, double &yd, Eigen::Matrix2d *jacobian) const;

  /// Normalised undistorted → pixel.
  void toPixel(double x, double y, double &u, double &v) const {
    double xd, yd;
    distortNormalised(x, y, xd, yd, nullptr);
    u = fx * xd + skew * yd + cx;
    v = fy * yd + cy;
  }

  /// Pixel → normalised undistorted, to a residual of the forward model below 1e-12 (about 1e-9 px at
  /// f = 1000 px); false when Newton's method does not get there (out keeps the best iterate, finite
  /// when the input is).
  MSTRI_LENS_INLINE bool toNormalised(double u, double v, double &x, double &y) const;

 private:
  MSTRI_LENS_INLINE bool undistortPinhole(double xd, double yd, double &x, double &y) const;
  MSTRI_LENS_INLINE bool newtonPinhole(double xd, double yd, double &x, double &y) const;
  bool undistortGeneral(double xd, double yd, double &x, double &y) const;
};

// MARK: - Inline definitions

inline void CameraModel::distortNormalised(double x, double y, double &xd, double &yd,
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

MSTRI_LENS_INLINE bool CameraModel::toNormalised(double u, double v, double &x, double &y) const {
  const double yd = (v - cy) / fy;
  const double xd = (u - cx - skew * yd) / fx;
  x = xd;
  y = yd;
  if (!hasDistortion) return true;
  return fisheye ? undistortGeneral(xd, yd, x, y) : undistortPinhole(xd, yd, x, y);
}

/// Newton's method on the Brown–Conrady forward model from (x, y), written out for speed (the hot path
/// of every triangulation). Once the residual is below 1e-8, the Newton step from there is taken without
/// measuring again when it is below 1e-7: Newton converges quadratically, so the residual after it is of
/// order |f''|·|step|² ≤ |f''|·1e-14, below the 1e-12 required wherever the model's second derivatives
/// are under 100 (any real lens). Larger residuals are measured after each step, and the best iterate
/// is kept, so a start outside the model's invertible range returns false, never garbage.
MSTRI_LENS_INLINE bool CameraModel::newtonPinhole(double xd, double yd, double &x, double &y) const {
  const double k1 = d[0], k2 = d[1], p1 = d[2], p2 = d[3], k3 = d[4];
  double bestResidual2 = INFINITY, bestX = x, bestY = y;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const double x2 = x * x, y2 = y * y, xy = x * y, r2 = x2 + y2;
    const double radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const double ex = x * radial + 2 * p1 * xy + p2 * (r2 + 2 * x2) - xd;
    const double ey = y * radial + p1 * (r2 + 2 * y2) + 2 * p2 * xy - yd;
    const double residual2 = ex * ex + ey * ey;
    if (residual2 < bestResidual2) {
      bestResidual2 = residual2;
      bestX = x;
      bestY = y;
    }
    if (residual2 < 1e-24) break;  // measured below 1e-12
    const double dRadial_dr2 = 2 * (k1 + r2 * (2 * k2 + 3 * k3 * r2));
    const double j00 = radial + dRadial_dr2 * x2 + 2 * p1 * y + 6 * p2 * x;
    const double j01 = dRadial_dr2 * xy + 2 * p1 * x + 2 * p2 * y;  // the Jacobian is symmetric
    const double j11 = radial + dRadial_dr2 * y2 + 6 * p1 * y + 2 * p2 * x;
    const double det = j00 * j11 - j01 * j01;
    if (!(std::abs(det) > 1e-12)) break;
    const double inverseDet = 1 / det;
    const double sx = (j11 * ex - j01 * ey) * inverseDet, sy = (j00 * ey - j01 * ex) * inverseDet;
    if (!std::isfinite(sx) || !std::isfinite(sy)) break;
    x -= sx;
    y -= sy;
    // In the quadratic regime (residual below 1e-8 and a step below 1e-7, so |J⁻¹| is moderate) the
    // step lands below 1e-12: see above.
    if (residual2 < 1e-16 && sx * sx + sy * sy < 1e-14) return true;
  }
  x = bestX;
  y = bestY;
  return bestResidual2 < 1e-24;
}

/// Starts Newton's method from the radial series reversion applied to the distorted point with its
/// tangential displacement removed (usually within 1e-5 of the answer, so two evaluations suffice). Where
/// that start fails (strong distortion near the edge of the invertible range, beyond the series' reach),
/// it tries again from the first-order inverse of the radial part and keeps whichever converged.
MSTRI_LENS_INLINE bool CameraModel::undistortPinhole(double xd, double yd, double &x, double &y) const {
  const double p1 = d[2], p2 = d[3];
  {
    const double r2 = xd * xd + yd * yd;
    const double tx = 2 * p1 * xd * yd + p2 * (r2 + 2 * xd * xd);
    const double ty = p1 * (r2 + 2 * yd * yd) + 2 * p2 * xd * yd;
    const double ux = xd - tx, uy = yd - ty, s2 = ux * ux + uy * uy;
    const double *b = inverseRadial;
    const double scale = 1 + s2 * (b[0] + s2 * (b[1] + s2 * (b[2] + s2 * (b[3] + s2 * b[4]))));
    if (scale > 0.5 && scale < 2) {
      x = ux * scale;
      y = uy * scale;
    }
  }
  if (newtonPinhole(xd, yd, x, y)) return true;
  const double r2 = xd * xd + yd * yd;
  const double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
  double x1 = xd, y1 = yd;
  if (radial > 0.5 && radial < 2) {
    x1 = xd / radial;
    y1 = yd / radial;
  }
  if (!newtonPinhole(xd, yd, x1, y1)) return false;
  x = x1;
  y = y1;
  return true;
}

}  // namespace mstri

#endif
