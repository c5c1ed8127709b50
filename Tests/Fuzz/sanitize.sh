#!/usr/bin/env bash
# Builds the package with AddressSanitizer (Swift, C, C++) and UndefinedBehaviorSanitizer (the C/C++ shim,
# trapping: Swift on Linux has no -sanitize=undefined) in .build/asan, and runs the tests that drive the
# triangulation shim: MatchSceneGeometryTests (triangulation, lens models, mirror swaps, robust refinement,
# bundle adjustment) and MatchSceneReconstructionTests.
#   Tests/Fuzz/sanitize.sh [FILTER]
# Not part of `./quickstart.sh test`: the instrumented build of the whole package takes 20–40 minutes on a
# 2-core machine. The figures of its last run are in docs/development.md ("Fuzzing and sanitizers").
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-MatchSceneGeometryTests|MatchSceneReconstructionTests}
ub=(-fsanitize=undefined -fsanitize-trap=undefined)
swift build --build-tests --build-path .build/asan --sanitize=address \
  -Xcc "${ub[0]}" -Xcc "${ub[1]}" -Xcxx "${ub[0]}" -Xcxx "${ub[1]}" 2>&1 |
  grep -v "ld.gold: warning: Cannot export local symbol"
# Leaks: off, as for the fuzzers (Swift's runtime caches).
ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --build-path .build/asan --disable-swift-testing --filter "$filter"
