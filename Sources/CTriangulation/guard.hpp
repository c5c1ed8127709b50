// The one place where C++ exceptions stop: every entry point runs its body through `guarded`.
#ifndef MATCHSCENE_CTRIANGULATION_GUARD_HPP
#define MATCHSCENE_CTRIANGULATION_GUARD_HPP

#include "CTriangulation.h"

namespace mstri {

template <typename Body>
mstri_status guarded(Body &&body) noexcept {
  try {
    return body();
  } catch (...) {
    return MSTRI_INTERNAL_ERROR;
  }
}

}  // namespace mstri

#endif
