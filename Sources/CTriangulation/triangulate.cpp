// mstri_triangulate: the batch entry point. Splits large batches across hardware threads.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "guard.hpp"
#include "triangulate_point.hpp"

namespace mstri {
namespace {

struct Batch {
  const std::vector<CameraModel> *cameras;
  size_t cameraCount;
  const double *observations;
  const mstri_options *options;
  double *points;
  double *reprojection;
  double *meanReprojection;
  uint8_t *usedViews;
  int32_t *status;
};

/// Triangulates points [begin, end) of the batch. Never throws.
bool runRange(const Batch &b, size_t begin, size_t end) noexcept {
  try {
    std::vector<View> views;
    views.reserve(b.cameraCount);
    const double weightOf = b.options->confidence_weighting ? 1.0 : 0.0;
    for (size_t p = begin; p < end; ++p) {
      views.clear();
      const double *obs = b.observations + 3 * p * b.cameraCount;
      for (size_t c = 0; c < b.cameraCount; ++c) {
        const double u = obs[3 * c], v = obs[3 * c + 1], conf = obs[3 * c + 2];
        if (!(conf > 0) || conf < b.options->min_confidence || !std::isfinite(u) ||
            !std::isfinite(v) || !std::isfinite(conf)) {
          continue;
        }
        const CameraModel &cam = (*b.cameras)[c];
        View view;
        view.camera = int(c);
        view.u = u;
        view.v = v;
        if (!cam.toNormalised(u, v, view.xn, view.yn)) continue;  // outside the lens model's range
        view.weight = weightOf > 0 ? conf : 1.0;
        view.used = false;
        view.error = -1;
        views.push_back(view);
      }
      const PointEstimate estimate = triangulatePoint(*b.cameras, views, *b.options);
      const bool ok = estimate.status == MSTRI_OK;
      for (int k = 0; k < 3; ++k) b.points[3 * p + k] = ok ? estimate.point(k) : 0.0;
      if (b.meanReprojection) b.meanReprojection[p] = ok ? estimate.meanError : -1.0;
      if (b.status) b.status[p] = estimate.status;
      if (b.reprojection || b.usedViews) {
        double *rep = b.reprojection ? b.reprojection + p * b.cameraCount : nullptr;
        uint8_t *used = b.usedViews ? b.usedViews + p * b.cameraCount : nullptr;
        for (size_t c = 0; c < b.cameraCount; ++c) {
          if (rep) rep[c] = -1;
          if (used) used[c] = 0;
        }
        for (const View &view : views) {
          if (rep && ok && std::isfinite(view.error)) rep[view.camera] = view.error;
          if (used && ok && view.used) used[view.camera] = 1;
        }
      }
    }
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace
}  // namespace mstri

extern "C" mstri_status mstri_triangulate(const double *cameras, size_t camera_count,
                                          const double *observations, size_t point_count,
                                          const mstri_options *options, double *points_out,
                                          double *reprojection_out, double *mean_reprojection_out,
                                          uint8_t *used_views_out, int32_t *status_out) {
  return mstri::guarded([&]() -> mstri_status {
    const mstri_options opts = options ? *options : mstri_default_options();
    if (mstri_check_options(&opts) != MSTRI_OK) return MSTRI_INVALID_ARGUMENT;
    if (point_count == 0) return MSTRI_OK;
    if (!cameras || camera_count == 0 || !observations || !points_out) return MSTRI_INVALID_ARGUMENT;
    std::vector<mstri::CameraModel> models(camera_count);
    for (size_t c = 0; c < camera_count; ++c) {
      if (!mstri::CameraModel::from(cameras + c * MSTRI_CAMERA_STRIDE, models[c])) {
        return MSTRI_INVALID_ARGUMENT;
      }
    }
    const mstri::Batch batch{&models,       camera_count,           observations,
                             &opts,         points_out,             reprojection_out,
                             mean_reprojection_out, used_views_out, status_out};
    // Threads pay off from a few hundred points on; small batches (one frame) stay on this thread.
    const size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const size_t threads = std::min<size_t>({hardware, 16, point_count / 256 + 1});
    if (threads <= 1) {
      return mstri::runRange(batch, 0, point_count) ? MSTRI_OK : MSTRI_INTERNAL_ERROR;
    }
    std::atomic<bool> ok{true};
    std::vector<std::thread> workers;
    const size_t chunk = (point_count + threads - 1) / threads;
    for (size_t t = 1; t < threads; ++t) {
      const size_t begin = t * chunk, end = std::min(point_count, begin + chunk);
      if (begin >= end) break;
      workers.emplace_back([&, begin, end] {
        if (!mstri::runRange(batch, begin, end)) ok = false;
      });
    }
    if (!mstri::runRange(batch, 0, std::min(point_count, chunk))) ok = false;
    for (std::thread &worker : workers) worker.join();
    return ok ? MSTRI_OK : MSTRI_INTERNAL_ERROR;
  });
}
