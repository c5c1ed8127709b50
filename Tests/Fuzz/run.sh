#!/usr/bin/env bash
# Fuzzes every reader and the shim's C API with libFuzzer.
#   Tests/Fuzz/run.sh [SECONDS] [HARNESS…]
# Builds the harnesses (Swift: one binary, `matchscene-fuzz`, with -sanitize=fuzzer,address in .build/fuzz;
# the C API: `shim-fuzz`, clang++ -fsanitize=fuzzer,address,undefined + Eigen), then runs each harness for
# SECONDS (default 4: the test command's short run, about a minute for all) from its checked-in seed corpus
# Tests/Fuzz/corpus/<harness>/ (new inputs go to .build/fuzz/corpus/, never into git). Prints executions per
# harness; exits 1 when any harness finds a crash, a sanitizer report, a timeout (10 s on one input) or an
# input that takes more than 2 GB; the input is kept in .build/fuzz/artifacts/<harness>/ — replay it with
#   MATCHSCENE_FUZZ_TARGET=<harness> .build/fuzz/debug/matchscene-fuzz -detect_leaks=0 <file>
# Leaks are not checked (-detect_leaks=0, and ASan's check at exit off): LeakSanitizer reports allocations
# left at exit by Swift's runtime caches and inside TOMLKit's conversion of TOML values (a few small
# allocations per value; harmless for a command that reads a few files, not investigated further).
# The long run (docs/development.md): Tests/Fuzz/run.sh 600.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-4}
shift || true
swift_harnesses=(match-toml calibration-toml calibration-yaml openpose coco mediapipe mediapipe-world deeplabcut tracknet
  qualisys arkit drill-toml zones-toml events-json tracks-csv)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${swift_harnesses[@]}" shim)

build=.build/fuzz
# The Swift toolchain's clang (it ships libFuzzer; Debian's clang may not).
clang=${CLANG:-$(dirname "$(readlink -f "$(command -v swift)")")/clang++}
mkdir -p "$build"
echo "Building the fuzz harnesses in $build"
# The manifest declares the harness target only with MATCHSCENE_FUZZ=1 (it links libFuzzer's main).
MATCHSCENE_FUZZ=1 swift build --build-path "$build" --product matchscene-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || {
  echo "fuzz harness build failed" >&2
  exit 1
}
shim_sources=(Tests/Fuzz/CAPI/shim_fuzz.cpp Sources/CTriangulation/*.cpp Sources/CTriangulation/*.hpp Sources/CTriangulation/include/*.h)
if [ ! -x "$build/shim-fuzz" ] || [ -n "$(find "${shim_sources[@]}" -newer "$build/shim-fuzz")" ]; then
  # The calibration kernels in the shim include OpenCV 4 and link its core, imgproc and calib3d, as the package does.
  "$clang" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I/usr/include/eigen3 -DEIGEN_MPL2_ONLY -ISources/CTriangulation/include -ISources/CTriangulation \
    -I/usr/include/opencv4 \
    Tests/Fuzz/CAPI/shim_fuzz.cpp Sources/CTriangulation/*.cpp -lopencv_calib3d -lopencv_imgproc -lopencv_core -o "$build/shim-fuzz" 2>&1 |
    grep -v "ld.gold: warning: Cannot export local symbol" || true
  [ -x "$build/shim-fuzz" ] || { echo "shim-fuzz build failed" >&2; exit 1; }
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
failed=()
printf '%-18s %12s %10s %8s  %s\n' harness executions exec/s corpus result
for h in "${harnesses[@]}"; do
  corpus=$build/corpus/$h
  artifacts=$build/artifacts/$h
  mkdir -p "$corpus" "$artifacts"
  seeds=Tests/Fuzz/corpus/$h
  [ -d "$seeds" ] || seeds=""
  log=$build/$h.log
  if [ "$h" = shim ]; then
    binary=("$build/shim-fuzz")
  else
    binary=(env MATCHSCENE_FUZZ_TARGET="$h" "$build/debug/matchscene-fuzz")
  fi
  status=0
  "${binary[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" ${seeds:+"$seeds"} >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  if [ $status -eq 0 ]; then
    result=ok
  else
    result="FOUND (exit $status): $(ls -t "$artifacts" | head -1) — see $log"
    failed+=("$h")
  fi
  printf '%-18s %12s %10s %8s  %s\n' "$h" "${runs:-?}" "${rate:-?}" "$size" "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
