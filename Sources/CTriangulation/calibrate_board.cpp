// Camera calibration entry points (OpenCV 4: core, imgproc, calib3d): checkerboard corners, Zhang's method,
// camera pose, sharpness. Images arrive decoded (8-bit grey, caller-owned); no image codec is linked.
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "CTriangulation.h"

namespace {

/// The calibration calls' exception barrier: OpenCV reports errors by throwing cv::Exception.
template <typename Body>
mscal_status calibrationGuarded(Body &&body) noexcept {
  try {
    return body();
  } catch (const cv::Exception &) {
    return MSCAL_DEGENERATE;
  } catch (...) {
    return MSCAL_INTERNAL_ERROR;
  }
}

bool allFinite(const double *values, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(values[i])) return false;
  return true;
}

/// K and the 5 distortion coefficients of a CTriangulation camera record.
void intrinsicsOf(const double *camera, cv::Mat &K, cv::Mat &dist) {
  K = (cv::Mat_<double>(3, 3) << camera[MSTRI_CAM_FX], camera[MSTRI_CAM_SKEW], camera[MSTRI_CAM_CX], 0,
       camera[MSTRI_CAM_FY], camera[MSTRI_CAM_CY], 0, 0, 1);
  dist = cv::Mat(1, 5, CV_64F);
  for (int i = 0; i < 5; ++i) dist.at<double>(0, i) = camera[MSTRI_CAM_DIST + i];
}

void writePose(const cv::Mat &rvec, const cv::Mat &tvec, double *camera) {
  cv::Mat R;
  cv::Rodrigues(rvec, R);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) camera[MSTRI_CAM_R + 3 * r + c] = R.at<double>(r, c);
  for (int i = 0; i < 3; ++i) camera[MSTRI_CAM_T + i] = tvec.at<double>(i);
}

/// A caller-owned 8-bit grey image as an OpenCV matrix header (no copy); empty when the arguments are not an image.
cv::Mat greyView(const uint8_t *pixels, int32_t width, int32_t height) {
  if (!pixels || width < 1 || height < 1) return cv::Mat();
  return cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(pixels));
}

}  // namespace

extern "C" mscal_status mscal_find_checkerboard(const uint8_t *pixels, int32_t width, int32_t height,
                                                int32_t columns, int32_t rows, double *corners_out) {
  return calibrationGuarded([&] {
    const cv::Mat grey = greyView(pixels, width, height);
    if (grey.empty() || !corners_out || columns < 2 || rows < 2) return MSCAL_INVALID_ARGUMENT;
    const cv::Size size(columns, rows);
    std::vector<cv::Point2f> corners;
    bool found = cv::findChessboardCornersSB(grey, size, corners, cv::CALIB_CB_EXHAUSTIVE | cv::CALIB_CB_ACCURACY);
    if (!found) {
      corners.clear();
      found = cv::findChessboardCorners(grey, size, corners,
                                        cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE);
      if (found)
        cv::cornerSubPix(grey, corners, cv::Size(5, 5), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 1e-3));
    }
    if (!found || corners.size() != size_t(columns) * size_t(rows)) return MSCAL_NOT_FOUND;
    for (size_t i = 0; i < corners.size(); ++i) {
      corners_out[2 * i] = corners[i].x;
      corners_out[2 * i + 1] = corners[i].y;
    }
    return MSCAL_OK;
  });
}

extern "C" mscal_status mscal_calibrate_intrinsics(const double *object_points, size_t point_count,
                                                   const double *image_points, size_t view_count, int32_t width,
                                                   int32_t height, int32_t distortion_terms, double *camera_out,
                                                   double *view_rms_out, double *view_poses_out, double *rms_out) {
  return calibrationGuarded([&] {
    if (!object_points || !image_points || !camera_out || !view_rms_out || !rms_out) return MSCAL_INVALID_ARGUMENT;
    if (point_count < 4 || view_count < 1 || width <= 0 || height <= 0) return MSCAL_INVALID_ARGUMENT;
    if (distortion_terms != 0 && distortion_terms != 2 && distortion_terms != 4 && distortion_terms != 5)
      return MSCAL_INVALID_ARGUMENT;
    if (!allFinite(object_points, 3 * point_count) || !allFinite(image_points, 2 * point_count * view_count))
      return MSCAL_INVALID_ARGUMENT;
    std::vector<cv::Point3f> target(point_count);
    for (size_t i = 0; i < point_count; ++i)
      target[i] = cv::Point3f(float(object_points[3 * i]), float(object_points[3 * i + 1]), float(object_points[3 * i + 2]));
    std::vector<std::vector<cv::Point3f>> objects(view_count, target);
    std::vector<std::vector<cv::Point2f>> images(view_count, std::vector<cv::Point2f>(point_count));
    for (size_t v = 0; v < view_count; ++v)
      for (size_t i = 0; i < point_count; ++i) {
        const double *p = image_points + 2 * (v * point_count + i);
        images[v][i] = cv::Point2f(float(p[0]), float(p[1]));
      }
    int flags = 0;
    if (distortion_terms < 5) flags |= cv::CALIB_FIX_K3;
    if (distortion_terms < 4) flags |= cv::CALIB_ZERO_TANGENT_DIST;
    if (distortion_terms < 2) flags |= cv::CALIB_FIX_K1 | cv::CALIB_FIX_K2;
    const cv::TermCriteria criteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12);
    const int noDistortion = cv::CALIB_FIX_K1 | cv::CALIB_FIX_K2 | cv::CALIB_FIX_K3 | cv::CALIB_ZERO_TANGENT_DIST;
    // First without distortion (the closed-form start is best conditioned there), then, from that
    // camera, the model asked for; the better fit is kept. A start whose principal point leaves the
    // image is refused by OpenCV: the model asked for is then fitted from its own closed-form start.
    cv::Mat K, dist;
    std::vector<cv::Mat> rvecs, tvecs;
    double rms = cv::calibrateCamera(objects, images, cv::Size(width, height), K, dist, rvecs, tvecs, noDistortion, criteria);
    if ((flags & noDistortion) != noDistortion) {
      cv::Mat K2 = K.clone(), dist2;
      std::vector<cv::Mat> rvecs2, tvecs2;
      double rms2 = INFINITY;
      try {
        rms2 = cv::calibrateCamera(objects, images, cv::Size(width, height), K2, dist2, rvecs2, tvecs2,
                                   flags | cv::CALIB_USE_INTRINSIC_GUESS, criteria);
      } catch (const cv::Exception &) {
        K2 = cv::Mat();
        rms2 = cv::calibrateCamera(objects, images, cv::Size(width, height), K2, dist2, rvecs2, tvecs2, flags, criteria);
      }
      if (std::isfinite(rms2) && (rms2 <= rms || !std::isfinite(rms))) {
        rms = rms2, K = K2, dist = dist2, rvecs = rvecs2, tvecs = tvecs2;
      }
    }
    if (!std::isfinite(rms) || !cv::checkRange(K)) return MSCAL_DEGENERATE;
    for (int i = 0; i < MSTRI_CAMERA_STRIDE; ++i) camera_out[i] = 0;
    camera_out[MSTRI_CAM_MODEL] = MSTRI_LENS_PINHOLE;
    camera_out[MSTRI_CAM_FX] = K.at<double>(0, 0);
    camera_out[MSTRI_CAM_FY] = K.at<double>(1, 1);
    camera_out[MSTRI_CAM_CX] = K.at<double>(0, 2);
    camera_out[MSTRI_CAM_CY] = K.at<double>(1, 2);
    camera_out[MSTRI_CAM_SKEW] = K.at<double>(0, 1);
    for (int i = 0; i < 5 && i < int(dist.total()); ++i) camera_out[MSTRI_CAM_DIST + i] = dist.at<double>(i);
    camera_out[MSTRI_CAM_R] = camera_out[MSTRI_CAM_R + 4] = camera_out[MSTRI_CAM_R + 8] = 1;
    for (size_t v = 0; v < view_count; ++v) {
      std::vector<cv::Point2f> projected;
      cv::projectPoints(objects[v], rvecs[v], tvecs[v], K, dist, projected);
      double sum = 0;
      for (size_t i = 0; i < point_count; ++i) {
        const double dx = projected[i].x - images[v][i].x, dy = projected[i].y - images[v][i].y;
        sum += dx * dx + dy * dy;
      }
      view_rms_out[v] = std::sqrt(sum / double(point_count));
      if (view_poses_out)
        for (int k = 0; k < 3; ++k) {
          view_poses_out[6 * v + k] = rvecs[v].at<double>(k);
          view_poses_out[6 * v + 3 + k] = tvecs[v].at<double>(k);
        }
    }
    *rms_out = rms;
    return MSCAL_OK;
  });
}

extern "C" mscal_status mscal_solve_pose(const double *camera, const double *world_points, const double *pixels,
                                         size_t point_count, double *camera_out, double *residuals_out,
                                         double *rms_out) {
  return calibrationGuarded([&] {
    if (!camera || !world_points || !pixels || !camera_out || !rms_out || point_count < 4) return MSCAL_INVALID_ARGUMENT;
    if (!allFinite(camera, MSTRI_CAMERA_STRIDE) || !allFinite(world_points, 3 * point_count) ||
        !allFinite(pixels, 2 * point_count))
      return MSCAL_INVALID_ARGUMENT;
    if (camera[MSTRI_CAM_MODEL] != MSTRI_LENS_PINHOLE) return MSCAL_INVALID_ARGUMENT;
    cv::Mat K, dist;
    intrinsicsOf(camera, K, dist);
    std::vector<cv::Point3d> world(point_count);
    std::vector<cv::Point2d> image(point_count);
    for (size_t i = 0; i < point_count; ++i) {
      world[i] = cv::Point3d(world_points[3 * i], world_points[3 * i + 1], world_points[3 * i + 2]);
      image[i] = cv::Point2d(pixels[2 * i], pixels[2 * i + 1]);
    }
    cv::Mat rvec, tvec;
    if (!cv::solvePnP(world, image, K, dist, rvec, tvec, false, cv::SOLVEPNP_SQPNP)) return MSCAL_DEGENERATE;
    cv::solvePnPRefineLM(world, image, K, dist, rvec, tvec,
                         cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 50, 1e-12));
    std::vector<cv::Point2d> projected;
    cv::projectPoints(world, rvec, tvec, K, dist, projected);
    double sum = 0;
    for (size_t i = 0; i < point_count; ++i) {
      const double d = std::hypot(projected[i].x - image[i].x, projected[i].y - image[i].y);
      if (residuals_out) residuals_out[i] = d;
      sum += d * d;
    }
    if (camera_out != camera)
      for (int i = 0; i < MSTRI_CAMERA_STRIDE; ++i) camera_out[i] = camera[i];
    writePose(rvec, tvec, camera_out);
    *rms_out = std::sqrt(sum / double(point_count));
    return std::isfinite(*rms_out) ? MSCAL_OK : MSCAL_DEGENERATE;
  });
}

extern "C" mscal_status mscal_image_sharpness(const uint8_t *pixels, int32_t width, int32_t height,
                                              double *sharpness_out) {
  return calibrationGuarded([&] {
    const cv::Mat grey = greyView(pixels, width, height);
    if (grey.empty() || !sharpness_out) return MSCAL_INVALID_ARGUMENT;
    cv::Mat laplacian;
    cv::Laplacian(grey, laplacian, CV_64F);
    cv::Scalar mean, deviation;
    cv::meanStdDev(laplacian, mean, deviation);
    *sharpness_out = deviation[0] * deviation[0];
    return MSCAL_OK;
  });
}
