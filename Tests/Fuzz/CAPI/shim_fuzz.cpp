// libFuzzer harness of CTriangulation's C API: the input bytes are decoded into calls of
// every entry point, with bounded sizes. Half of the values come from a plausible rig (cameras on a
// ring looking at the origin, points near it) perturbed by decoded amounts, so that the calls get past
// their argument checks into the solvers; the rest are raw doubles (NaN, ±inf, denormals, 1e308).
// A status other than MSTRI_OK is a fine answer; a crash, a sanitizer report, a non-finite output the
// header promises finite, or a timeout is a finding.
#include <CTriangulation.h>
#include <calibrate.h>
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace {

constexpr size_t kMaxCameras = 6;
constexpr size_t kMaxPoints = 48;

/// A double that is either raw (any bit pattern) or `base` moved by a decoded fraction of `scale`.
double value(FuzzedDataProvider &in, double base, double scale) {
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return in.ConsumeFloatingPoint<double>();
  return base + scale * in.ConsumeFloatingPointInRange<double>(-1.0, 1.0);
}

/// Camera k of n on a 5 m ring around the origin, 1.5 m up, looking at the origin; every field
/// perturbed by `value`.
std::vector<double> camera(FuzzedDataProvider &in, size_t k, size_t n) {
  std::vector<double> c(MSTRI_CAMERA_STRIDE, 0.0);
  const double angle = 2 * M_PI * double(k) / double(n);
  const double centre[3] = {5 * std::cos(angle), 5 * std::sin(angle), 1.5};
  // Rows of camFromWorld: x right, y down, z towards the origin.
  double z[3] = {-centre[0], -centre[1], -centre[2]};
  const double zn = std::sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  for (double &v : z) v /= zn;
  double x[3] = {z[1], -z[0], 0};
  const double xn = std::sqrt(x[0] * x[0] + x[1] * x[1]);
  for (double &v : x) v /= xn;
  const double y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
  c[MSTRI_CAM_MODEL] = in.ConsumeBool() ? MSTRI_LENS_FISHEYE : MSTRI_LENS_PINHOLE;
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) c[MSTRI_CAM_MODEL] = in.ConsumeFloatingPoint<double>();
  c[MSTRI_CAM_FX] = value(in, 1400, 300);
  c[MSTRI_CAM_FY] = value(in, 1400, 300);
  c[MSTRI_CAM_CX] = value(in, 960, 100);
  c[MSTRI_CAM_CY] = value(in, 540, 100);
  c[MSTRI_CAM_SKEW] = value(in, 0, 1);
  for (int i = 0; i < 5; i++) c[MSTRI_CAM_DIST + i] = value(in, 0, 0.3);
  const double *rows[3] = {x, y, z};
  for (int r = 0; r < 3; r++)
    for (int col = 0; col < 3; col++) c[MSTRI_CAM_R + 3 * r + col] = value(in, rows[r][col], 0.05);
  for (int r = 0; r < 3; r++) {
    const double t = -(rows[r][0] * centre[0] + rows[r][1] * centre[1] + rows[r][2] * centre[2]);
    c[MSTRI_CAM_T + r] = value(in, t, 0.5);
  }
  return c;
}

std::vector<double> cameras(FuzzedDataProvider &in, size_t n) {
  std::vector<double> all;
  for (size_t k = 0; k < n; k++) {
    auto c = camera(in, k, n);
    all.insert(all.end(), c.begin(), c.end());
  }
  return all;
}

/// Projects `point` into camera record `c` (no distortion: the observations only need to be near).
void pixel(const double *c, const double *point, double *out) {
  double p[3];
  for (int r = 0; r < 3; r++)
    p[r] = c[MSTRI_CAM_R + 3 * r] * point[0] + c[MSTRI_CAM_R + 3 * r + 1] * point[1] + c[MSTRI_CAM_R + 3 * r + 2] * point[2] +
           c[MSTRI_CAM_T + r];
  out[0] = c[MSTRI_CAM_FX] * p[0] / p[2] + c[MSTRI_CAM_CX];
  out[1] = c[MSTRI_CAM_FY] * p[1] / p[2] + c[MSTRI_CAM_CY];
}

void check_finite(const double *values, size_t count, const char *what) {
  for (size_t i = 0; i < count; i++)
    if (!std::isfinite(values[i])) {
      std::fprintf(stderr, "%s[%zu] = %g: the header promises finite outputs\n", what, i, values[i]);
      std::abort();
    }
}

mstri_options options(FuzzedDataProvider &in) {
  mstri_options o = mstri_default_options();
  if (in.ConsumeBool()) {
    o.robust = in.ConsumeIntegralInRange<int32_t>(-1, 2);
    o.min_confidence = value(in, 0.1, 0.2);
    o.confidence_weighting = in.ConsumeIntegralInRange<int32_t>(-1, 2);
    o.min_ray_angle = value(in, 1e-4, 1e-3);
    o.max_reprojection_px = value(in, 8, 10);
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  const int call = in.ConsumeIntegralInRange<int>(0, 6);
  const size_t n = in.ConsumeIntegralInRange<size_t>(1, kMaxCameras);
  const size_t points = in.ConsumeIntegralInRange<size_t>(0, kMaxPoints);
  std::vector<double> cams = cameras(in, n);
  std::vector<double> world(3 * points);
  for (size_t i = 0; i < world.size(); i++) world[i] = value(in, 0, 1.5);
  // Observations: the projection of each point, moved by a few pixels, with a confidence.
  std::vector<double> obs(3 * points * n);
  for (size_t p = 0; p < points; p++)
    for (size_t c = 0; c < n; c++) {
      double *o = &obs[3 * (p * n + c)];
      pixel(&cams[c * MSTRI_CAMERA_STRIDE], &world[3 * p], o);
      o[0] = value(in, o[0], 5);
      o[1] = value(in, o[1], 5);
      o[2] = value(in, 0.8, 0.5);
    }

  switch (call) {
  case 0: {
    std::vector<double> pixels(2 * points, 7.0);
    std::vector<int32_t> status(points);
    if (mstri_project_points(cams.data(), world.data(), points, pixels.data(), status.data()) == MSTRI_OK)
      check_finite(pixels.data(), pixels.size(), "project_points pixels");
    break;
  }
  case 1: {
    std::vector<double> xy(2 * points);
    for (size_t i = 0; i < xy.size(); i++) xy[i] = value(in, 0, 0.8);
    std::vector<double> pixels(xy.size()), back(xy.size());
    std::vector<int32_t> status(points);
    mstri_distort_points(cams.data(), xy.data(), points, pixels.data());
    if (mstri_undistort_points(cams.data(), pixels.data(), points, back.data(), status.data()) == MSTRI_OK)
      check_finite(back.data(), back.size(), "undistort_points output");
    break;
  }
  case 2: {
    const mstri_options o = options(in);
    std::vector<double> out(3 * points), reprojection(points * n), mean(points);
    std::vector<uint8_t> used(points * n);
    std::vector<int32_t> status(points);
    if (mstri_triangulate(cams.data(), n, obs.data(), points, in.ConsumeBool() ? nullptr : &o, out.data(),
                          reprojection.data(), mean.data(), used.data(), status.data()) == MSTRI_OK)
      check_finite(out.data(), out.size(), "triangulate points");
    break;
  }
  case 3: {
    const size_t keypoints = in.ConsumeIntegralInRange<size_t>(1, 17);
    const size_t people = points / keypoints;
    const size_t pairs = in.ConsumeIntegralInRange<size_t>(0, 8);
    std::vector<int32_t> mirror(2 * pairs);
    for (auto &m : mirror) m = in.ConsumeIntegralInRange<int32_t>(-1, int32_t(keypoints));
    std::vector<uint8_t> valid(people * keypoints);
    for (auto &v : valid) v = in.ConsumeBool();
    std::vector<uint8_t> swaps(people * n);
    mstri_mirror_swaps(cams.data(), n, obs.data(), world.data(), in.ConsumeBool() ? valid.data() : nullptr, people,
                       keypoints, mirror.data(), pairs, value(in, 0.1, 0.2), value(in, 2, 3), swaps.data());
    break;
  }
  case 4: {
    mstri_bundle_options o = mstri_default_bundle_options();
    o.max_iterations = in.ConsumeIntegralInRange<int32_t>(0, 30);  // bounded: 1000 would only be slower
    if (in.ConsumeBool()) {
      o.loss = in.ConsumeIntegralInRange<int32_t>(-1, 2);
      o.loss_scale_px = value(in, 2, 3);
      o.refine_focal = in.ConsumeIntegralInRange<int32_t>(0, 1);
      o.reference_camera = in.ConsumeIntegralInRange<int32_t>(-2, int32_t(n));
      o.scale_camera = in.ConsumeIntegralInRange<int32_t>(-2, int32_t(n));
      o.function_tolerance = value(in, 1e-7, 1e-6);
      o.step_tolerance = value(in, 1e-6, 1e-5);
      o.min_camera_observations = in.ConsumeIntegralInRange<int32_t>(0, 12);
    }
    std::vector<int32_t> indices;
    std::vector<double> values;
    for (size_t p = 0; p < points; p++)
      for (size_t c = 0; c < n; c++) {
        if (in.ConsumeIntegralInRange<int>(0, 9) == 0) continue;  // a missing view
        const bool wild = in.ConsumeIntegralInRange<int>(0, 31) == 0;
        indices.push_back(wild ? in.ConsumeIntegral<int32_t>() : int32_t(c));
        indices.push_back(wild ? in.ConsumeIntegral<int32_t>() : int32_t(p));
        values.insert(values.end(), &obs[3 * (p * n + c)], &obs[3 * (p * n + c)] + 3);
      }
    std::vector<uint8_t> fixed(n);
    for (auto &f : fixed) f = in.ConsumeIntegralInRange<int>(0, 3) == 0;
    std::vector<double> cams_out(cams.size()), points_out(world.size());
    std::vector<mstri_bundle_camera_report> reports(n);
    mstri_bundle_summary summary;
    if (mstri_bundle_adjust(cams.data(), n, in.ConsumeBool() ? fixed.data() : nullptr, indices.data(), values.data(),
                            values.size() / 3, world.data(), points, &o, cams_out.data(), points_out.data(),
                            reports.data(), &summary) == MSTRI_OK) {
      check_finite(cams_out.data(), cams_out.size(), "bundle_adjust cameras");
      check_finite(points_out.data(), points_out.size(), "bundle_adjust points");
    }
    break;
  }
  case 5: {
    // A small grey image (the rest of the input, repeated) searched for a board of decoded size.
    const int32_t width = in.ConsumeIntegralInRange<int32_t>(-1, 64), height = in.ConsumeIntegralInRange<int32_t>(-1, 64);
    const int32_t columns = in.ConsumeIntegralInRange<int32_t>(0, 9), rows = in.ConsumeIntegralInRange<int32_t>(0, 9);
    std::vector<uint8_t> image(size_t(std::max(width, 0)) * size_t(std::max(height, 0)));
    const std::vector<uint8_t> bytes = in.ConsumeRemainingBytes<uint8_t>();
    for (size_t i = 0; i < image.size(); i++) image[i] = bytes.empty() ? uint8_t(i * 37) : bytes[i % bytes.size()];
    std::vector<double> corners(2 * size_t(columns) * size_t(rows));
    if (mscal_find_checkerboard(image.empty() ? nullptr : image.data(), width, height, columns, rows, corners.data()) == MSCAL_OK)
      check_finite(corners.data(), corners.size(), "find_checkerboard corners");
    double sharpness = 0;
    if (mscal_image_sharpness(image.empty() ? nullptr : image.data(), width, height, &sharpness) == MSCAL_OK)
      check_finite(&sharpness, 1, "image_sharpness");
    break;
  }
  case 6: {
    // A camera's pose from the points and camera 0's observations; Zhang's method on the points laid flat
    // (z = 0) as seen by every camera.
    std::vector<double> pixels(2 * points), residuals(points), out(MSTRI_CAMERA_STRIDE);
    for (size_t p = 0; p < points; p++) {
      pixels[2 * p] = obs[3 * p * n];
      pixels[2 * p + 1] = obs[3 * p * n + 1];
    }
    double rms = 0;
    if (mscal_solve_pose(cams.data(), world.data(), pixels.data(), points, out.data(), residuals.data(), &rms) == MSCAL_OK)
      check_finite(out.data(), out.size(), "solve_pose camera");
    std::vector<double> flat(world);
    for (size_t p = 0; p < points; p++) flat[3 * p + 2] = 0;
    std::vector<double> views(2 * points * n);
    for (size_t c = 0; c < n; c++)
      for (size_t p = 0; p < points; p++) {
        views[2 * (c * points + p)] = obs[3 * (p * n + c)];
        views[2 * (c * points + p) + 1] = obs[3 * (p * n + c) + 1];
      }
    std::vector<double> viewRMS(n), poses(6 * n);
    const int32_t terms = in.PickValueInArray<int32_t>({0, 2, 4, 5, 3});
    if (mscal_calibrate_intrinsics(flat.data(), points, views.data(), n, in.ConsumeIntegralInRange<int32_t>(-1, 1920),
                                   in.ConsumeIntegralInRange<int32_t>(-1, 1080), terms, out.data(), viewRMS.data(),
                                   poses.data(), &rms) == MSCAL_OK)
      check_finite(out.data(), out.size(), "calibrate_intrinsics camera");
    break;
  }
  }
  return 0;
}
