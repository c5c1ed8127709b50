// Placeholder; replaced by the real kernels.
#include "CTriangulation.h"
