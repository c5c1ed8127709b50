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

/// Triangulates points [begin, end) of the batch. Never throws.
bool runRange(const Batch &b, size_t begin, size_t end) noexcept {
  try {
    triangulateRange(b, begin, end);
    return true;
  } catch (...) {
    return false;
  }
}

/// Points a thread claims at a time: small next to a batch worth splitting (256 points per thread
/// and more), large next to the cost of claiming them (one atomic add).
constexpr size_t kBlockPoints = 64;

/// The hardware threads, asked once (C++11 makes the static's initialisation thread-safe).
size_t hardwareThreads() noexcept {
  static const size_t count = std::max(1u, std::thread::hardware_concurrency());
  return count;
}

}  // namespace
}  // namespace mstri

extern "C" mstri_status mstri_triangulate(const double *cameras, size_t camera_count,
                                          const double *observations, size_t point_count,
                                          const mstri_options *options, double *points_out,
                                          double *reprojection_out, double *mean_reprojection_out,
                                          uint8_t *used_views_out, int32_t *status_out) {
  return mstri_triangulate_scaled(cameras, camera_count, nullptr, observations, point_count, options, points_out,
                                  reprojection_out, mean_reprojection_out, used_views_out, status_out);
}

extern "C" mstri_status mstri_triangulate_scaled(const double *cameras, size_t camera_count,
                                                 const double *camera_noise_px, const double *observations,
                                                 size_t point_count, const mstri_options *options,
                                                 double *points_out, double *reprojection_out,
                                                 double *mean_reprojection_out, uint8_t *used_views_out,
                                                 int32_t *status_out) {
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
      if (camera_noise_px && !(std::isfinite(camera_noise_px[c]) && camera_noise_px[c] > 0)) {
        return MSTRI_INVALID_ARGUMENT;
      }
    }
    const mstri::Batch batch{models.data(), camera_count,     observations,          &opts,          camera_noise_px,
                             points_out,    reprojection_out, mean_reprojection_out, used_views_out, status_out};
    // Threads pay off from a few hundred points on; small batches (one frame) stay on this thread
    // without asking how many cores there are (glibc reads /sys for that on every call).
    const size_t wanted = point_count / 256 + 1;
    const size_t threads = wanted <= 1 ? 1 : std::min<size_t>({mstri::hardwareThreads(), 16, wanted});
    if (threads <= 1) {
      return mstri::runRange(batch, 0, point_count) ? MSTRI_OK : MSTRI_INTERNAL_ERROR;
    }
    // Each thread claims blocks of points as it goes rather than a fixed share, so a thread the system
    // runs less often (a busy machine) or that meets costlier points does not hold up the call. The
    // points are independent, so the results do not depend on which thread did which block.
    std::atomic<bool> ok{true};
    std::atomic<size_t> next{0};
    const auto work = [&] {
      for (;;) {
        const size_t begin = next.fetch_add(mstri::kBlockPoints, std::memory_order_relaxed);
        if (begin >= point_count) return;
        if (!mstri::runRange(batch, begin, std::min(point_count, begin + mstri::kBlockPoints))) ok = false;
      }
    };
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (std::thread &worker : workers) worker.join();
    return ok ? MSTRI_OK : MSTRI_INTERNAL_ERROR;
  });
}
