// CAssimp: the parts of assimp's C API MatchScene uses. No stable API; see README.md.
#ifndef MATCHSCENE_CASSIMP_SHIM_H
#define MATCHSCENE_CASSIMP_SHIM_H
#include <assimp/cimport.h>
#include <assimp/cexport.h>
#include <assimp/scene.h>
#include <assimp/postprocess.h>
#include <assimp/version.h>
#endif
