// Per-view left/right swap repair (see `mstri_mirror_swaps` in CTriangulation.h).
#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "CTriangulation.h"
#include "guard.hpp"
#include "lens_model.hpp"

namespace {

/// Pixel of a world point in `cam`; false behind the camera or when not finite.
bool project(const mstri::CameraModel &cam, const double *xyz, Eigen::Vector2d &pixel) {
  const Eigen::Vector3d X(xyz[0], xyz[1], xyz[2]);
  const Eigen::Vector3d p = cam.camFromWorld_R * X + cam.camFromWorld_t;
  if (!X.allFinite() || !(p.z() > 1e-9)) return false;
  cam.toPixel(p.x() / p.z(), p.y() / p.z(), pixel.x(), pixel.y());
  return pixel.allFinite();
}

}  // namespace

extern "C" mstri_status mstri_mirror_swaps(const double *cameras, size_t camera_count, const double *observations,
                                           const double *points, const uint8_t *valid, size_t person_count,
                                           size_t keypoint_count, const int32_t *mirror_pairs, size_t pair_count,
                                           double min_confidence, double min_gain_px, uint8_t *swap_out) {
  return mstri::guarded([&] {
    if (person_count == 0 || camera_count == 0) return MSTRI_OK;
    if (!cameras || !observations || !points || !swap_out || (pair_count > 0 && !mirror_pairs) ||
        !std::isfinite(min_confidence) || !std::isfinite(min_gain_px)) {
      return MSTRI_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < 2 * pair_count; ++i) {
      if (mirror_pairs[i] < 0 || static_cast<size_t>(mirror_pairs[i]) >= keypoint_count) return MSTRI_INVALID_ARGUMENT;
    }
    std::vector<mstri::CameraModel> models(camera_count);
    for (size_t c = 0; c < camera_count; ++c) {
      if (!mstri::CameraModel::from(cameras + c * MSTRI_CAMERA_STRIDE, models[c])) return MSTRI_INVALID_ARGUMENT;
    }
    for (size_t person = 0; person < person_count; ++person) {
      for (size_t c = 0; c < camera_count; ++c) {
        double straight = 0, swapped = 0;
        int compared = 0;
        for (size_t k = 0; k < pair_count; ++k) {
          const size_t l = person * keypoint_count + static_cast<size_t>(mirror_pairs[2 * k]);
          const size_t r = person * keypoint_count + static_cast<size_t>(mirror_pairs[2 * k + 1]);
          if (valid && (!valid[l] || !valid[r])) continue;
          const double *ol = observations + 3 * (l * camera_count + c);
          const double *orr = observations + 3 * (r * camera_count + c);
          const bool detected = ol[2] > 0 && ol[2] >= min_confidence && orr[2] > 0 && orr[2] >= min_confidence &&
                                std::isfinite(ol[0]) && std::isfinite(ol[1]) && std::isfinite(orr[0]) &&
                                std::isfinite(orr[1]);
          Eigen::Vector2d ql, qr;
          if (!detected || !project(models[c], points + 3 * l, ql) || !project(models[c], points + 3 * r, qr)) continue;
          const Eigen::Vector2d kl(ol[0], ol[1]), kr(orr[0], orr[1]);
          straight += (kl - ql).norm() + (kr - qr).norm();
          swapped += (kl - qr).norm() + (kr - ql).norm();
          ++compared;
        }
        swap_out[person * camera_count + c] =
            compared >= 2 && swapped < 0.5 * straight && straight - swapped > min_gain_px * compared ? 1 : 0;
      }
    }
    return MSTRI_OK;
  });
}
