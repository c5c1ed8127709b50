// Triangulation of a range of points of one batch (internal to CTriangulation).
#ifndef MATCHSCENE_CTRIANGULATION_TRIANGULATE_POINT_HPP
#define MATCHSCENE_CTRIANGULATION_TRIANGULATE_POINT_HPP

#include <stddef.h>
#include <stdint.h>

#include "CTriangulation.h"
#include "lens_model.hpp"

namespace mstri {

/// One `mstri_triangulate` call, unpacked and checked; the buffers are the caller's (see the header).
struct Batch {
  const CameraModel *cameras;
  size_t cameraCount;
  const double *observations;
  const mstri_options *options;
  const double *noisePx;     ///< per camera noise scale, pixels; may be NULL (pixels, fixed gate)
  double *points;
  double *reprojection;      ///< may be NULL
  double *meanReprojection;  ///< may be NULL
  uint8_t *usedViews;        ///< may be NULL
  int32_t *status;           ///< may be NULL
};

/// Triangulates points [begin, end) of `batch` and writes their outputs. See mstri_triangulate in
/// CTriangulation.h for the algorithm and the statuses. May throw std::bad_alloc; the caller catches.
void triangulateRange(const Batch &batch, size_t begin, size_t end);

}  // namespace mstri

#endif
