// Triangulation of one point from its views (internal to CTriangulation).
#ifndef MATCHSCENE_CTRIANGULATION_TRIANGULATE_POINT_HPP
#define MATCHSCENE_CTRIANGULATION_TRIANGULATE_POINT_HPP

#include <Eigen/Core>
#include <vector>

#include "CTriangulation.h"
#include "lens_model.hpp"

namespace mstri {

/// One observation of the point, after undistortion.
struct View {
  int camera;          ///< index into the camera list
  double u, v;         ///< observed pixel
  double xn, yn;       ///< normalised undistorted coordinates
  double weight;       ///< confidence (or 1 without confidence weighting)
  Eigen::Vector3d ray; ///< unit viewing ray in world coordinates, valid when `hasRay`
  bool hasRay = false;
  bool used;
  double error;        ///< pixel reprojection error of the current estimate
};

/// Result for one point.
struct PointEstimate {
  mstri_status status = MSTRI_TOO_FEW_VIEWS;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  double meanError = -1;
};

/// Triangulates one point from `views` (which it updates: `used`, `error`).
/// See mstri_triangulate in CTriangulation.h for the algorithm and the statuses.
PointEstimate triangulatePoint(const std::vector<CameraModel> &cameras, std::vector<View> &views,
                               const mstri_options &options);

}  // namespace mstri

#endif
