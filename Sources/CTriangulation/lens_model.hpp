// Camera records and lens models shared by the kernels (internal to CTriangulation).
#ifndef MATCHSCENE_CTRIANGULATION_LENS_MODEL_HPP
#define MATCHSCENE_CTRIANGULATION_LENS_MODEL_HPP

#include <Eigen/Core>
#include <cmath>

#include "CTriangulation.h"

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

  /// Unpacks and checks a record: finite values, positive focal lengths, a known model.
  static bool from(const double *record, CameraModel &out);

  /// Normalised undistorted (x, y) → distorted normalised (xd, yd), with its 2×2 Jacobian if asked.
  void distortNormalised(double x, double y, double &xd, double &yd, Eigen::Matrix2d *jacobian) const;

  /// Normalised undistorted → pixel.
  void toPixel(double x, double y, double &u, double &v) const {
    double xd, yd;
    distortNormalised(x, y, xd, yd, nullptr);
    u = fx * xd + skew * yd + cx;
    v = fy * yd + cy;
  }

  /// Pixel → normalised undistorted; false when the solver does not converge (out keeps the best iterate).
  bool toNormalised(double u, double v, double &x, double &y) const;
};

}  // namespace mstri

#endif
