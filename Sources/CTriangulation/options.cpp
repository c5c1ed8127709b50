// Defaults and checks of mstri_options.
#include <cmath>

#include "guard.hpp"

extern "C" mstri_options mstri_default_options(void) {
  mstri_options o;
  o.min_confidence = 0.1;
  o.confidence_weighting = 1;
  o.min_ray_angle = 1e-4;
  o.robust = 0;
  o.max_reprojection_px = 8;
  o.huber_px = 2;
  o.min_views = 2;
  o.max_iterations = 5;
  o.gate_sigmas = 5;
  o.noise_weighting = 1;
  return o;
}

extern "C" mstri_status mstri_check_options(const mstri_options *o) {
  if (!o) return MSTRI_INVALID_ARGUMENT;
  const bool ok = std::isfinite(o->min_confidence) && o->min_confidence >= 0 &&
                  std::isfinite(o->min_ray_angle) && o->min_ray_angle >= 0 &&
                  std::isfinite(o->max_reprojection_px) && o->max_reprojection_px > 0 &&
                  std::isfinite(o->huber_px) && o->huber_px > 0 && o->min_views >= 2 &&
                  o->max_iterations >= 0 && o->max_iterations <= 1000 &&
                  std::isfinite(o->gate_sigmas) && o->gate_sigmas > 0;
  return ok ? MSTRI_OK : MSTRI_INVALID_ARGUMENT;
}
