// The relative pose of two calibrated views (OpenCV 4): five-point essential matrix in RANSAC, then the
// decomposition with the points in front of both views.
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "CTriangulation.h"

extern "C" mscal_status mscal_relative_pose(const double *normalised_a, const double *normalised_b, size_t count,
                                            double threshold, int32_t max_iterations, double *rotation_out,
                                            double *translation_out, uint8_t *inliers_out, size_t *inlier_count_out) {
  try {
    if (!normalised_a || !normalised_b || !rotation_out || !translation_out || !inliers_out || !inlier_count_out)
      return MSCAL_INVALID_ARGUMENT;
    if (count < 5 || max_iterations < 1 || !(threshold > 0) || !std::isfinite(threshold)) return MSCAL_INVALID_ARGUMENT;
    std::vector<cv::Point2d> a(count), b(count);
    for (size_t i = 0; i < count; ++i) {
      a[i] = cv::Point2d(normalised_a[2 * i], normalised_a[2 * i + 1]);
      b[i] = cv::Point2d(normalised_b[2 * i], normalised_b[2 * i + 1]);
      if (!std::isfinite(a[i].x) || !std::isfinite(a[i].y) || !std::isfinite(b[i].x) || !std::isfinite(b[i].y))
        return MSCAL_INVALID_ARGUMENT;
    }
    const cv::Mat identity = cv::Mat::eye(3, 3, CV_64F);
    cv::Mat mask;
    const cv::Mat E = cv::findEssentialMat(a, b, identity, cv::RANSAC, 0.9999, threshold, max_iterations, mask);
    if (E.rows != 3 || E.cols != 3) return MSCAL_DEGENERATE;
    cv::Mat R, t;
    const int front = cv::recoverPose(E, a, b, identity, R, t, mask);
    if (front < 5) return MSCAL_DEGENERATE;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) rotation_out[3 * r + c] = R.at<double>(r, c);
    for (int i = 0; i < 3; ++i) translation_out[i] = t.at<double>(i);
    size_t inliers = 0;
    for (size_t i = 0; i < count; ++i) {
      inliers_out[i] = mask.at<uint8_t>(int(i)) != 0 ? 1 : 0;
      inliers += inliers_out[i];
    }
    *inlier_count_out = inliers;
    return MSCAL_OK;
  } catch (const cv::Exception &) {
    return MSCAL_DEGENERATE;
  } catch (...) {
    return MSCAL_INTERNAL_ERROR;
  }
}
