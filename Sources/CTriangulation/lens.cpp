// Entry points for projection and (un)distortion.
#include <cmath>

#include "guard.hpp"
#include "lens_model.hpp"

using mstri::CameraModel;

extern "C" mstri_status mstri_project_points(const double *camera, const double *points_world,
                                             size_t count, double *pixels_out, int32_t *status_out) {
  return mstri::guarded([&] {
    CameraModel cam;
    if (!camera || (count > 0 && (!points_world || !pixels_out))) return MSTRI_INVALID_ARGUMENT;
    if (!CameraModel::from(camera, cam)) return MSTRI_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; ++i) {
      const Eigen::Vector3d X(points_world[3 * i], points_world[3 * i + 1], points_world[3 * i + 2]);
      const Eigen::Vector3d p = cam.camFromWorld_R * X + cam.camFromWorld_t;
      int32_t status = MSTRI_OK;
      double u = 0, v = 0;
      if (!X.allFinite()) {
        status = MSTRI_INVALID_ARGUMENT;
      } else if (!(p.z() > 1e-9)) {
        status = MSTRI_BEHIND_CAMERA;
      } else {
        cam.toPixel(p.x() / p.z(), p.y() / p.z(), u, v);
        if (!std::isfinite(u) || !std::isfinite(v)) {
          status = MSTRI_DEGENERATE;
          u = v = 0;
        }
      }
      pixels_out[2 * i] = u;
      pixels_out[2 * i + 1] = v;
      if (status_out) status_out[i] = status;
    }
    return MSTRI_OK;
  });
}

extern "C" mstri_status mstri_distort_points(const double *camera, const double *normalised,
                                             size_t count, double *pixels_out) {
  return mstri::guarded([&] {
    CameraModel cam;
    if (!camera || (count > 0 && (!normalised || !pixels_out))) return MSTRI_INVALID_ARGUMENT;
    if (!CameraModel::from(camera, cam)) return MSTRI_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; ++i) {
      double u, v;
      cam.toPixel(normalised[2 * i], normalised[2 * i + 1], u, v);
      pixels_out[2 * i] = u;
      pixels_out[2 * i + 1] = v;
    }
    return MSTRI_OK;
  });
}

extern "C" mstri_status mstri_undistort_points(const double *camera, const double *pixels,
                                               size_t count, double *normalised_out,
                                               int32_t *status_out) {
  return mstri::guarded([&] {
    CameraModel cam;
    if (!camera || (count > 0 && (!pixels || !normalised_out))) return MSTRI_INVALID_ARGUMENT;
    if (!CameraModel::from(camera, cam)) return MSTRI_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; ++i) {
      double x = 0, y = 0;
      int32_t status = MSTRI_OK;
      if (!std::isfinite(pixels[2 * i]) || !std::isfinite(pixels[2 * i + 1])) {
        status = MSTRI_INVALID_ARGUMENT;
      } else if (!cam.toNormalised(pixels[2 * i], pixels[2 * i + 1], x, y)) {
        status = MSTRI_NOT_CONVERGED;
      }
      if (!std::isfinite(x) || !std::isfinite(y)) x = y = 0;
      normalised_out[2 * i] = x;
      normalised_out[2 * i + 1] = y;
      if (status_out) status_out[i] = status;
    }
    return MSTRI_OK;
  });
}
