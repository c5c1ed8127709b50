#!/usr/bin/env bash
# How fast `matchscene reconstruct` runs a 60 s and a 600 s simulated 4-camera match (OpenPose JSON,
# 60 fps: 14,400 and 144,000 files): wall time with the page cache warm (best of RUNS) and, as root,
# cold (caches dropped first), peak RSS, the stage breakdown `reconstruct` prints, and the
# 600 s / 60 s ratio of warm wall times.
#
#   Examples/benchmarks/reconstruct_speed.sh [work folder] [matchscene binary]
#
# Defaults: /tmp/matchscene-speed and .build/release/matchscene (build it with
# `swift build -c release --product matchscene`). The matches are simulated once (seed 1) and kept.
# RUNS (default 3) sets the number of warm runs; COLD=0 skips the cold run.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/matchscene-speed}
bin=${2:-.build/release/matchscene}
runs=${RUNS:-3}
mkdir -p "$work"
[ -x "$bin" ] || { echo "no $bin: swift build -c release --product matchscene" >&2; exit 1; }

# One run: prints "wall_s rss_mb cpu_s" (cpu: user + system) and leaves reconstruct's own output in
# $work/last.log.
run() {
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.txt" "$bin" reconstruct "$1" -o "$work/out-$2" --force > "$work/last.log"
  awk '{ printf "%.2f %.0f %.1f\n", $1, $2 / 1024, $3 + $4 }' "$work/time.txt"
}

declare -A best
for seconds in 60 600; do
  match="$work/m$seconds"
  if [ ! -f "$match/match.toml" ]; then
    echo "simulating a $seconds s match into $match ..."
    "$bin" simulate --duration "$seconds" --seed 1 -o "$match" --force > /dev/null
  fi
  files=$(find "$match/pose" -name '*.json' | wc -l)
  run "$match" "$seconds" > /dev/null  # warms the page cache
  best[$seconds]=
  for k in $(seq "$runs"); do
    read -r wall rss cpu < <(run "$match" "$seconds")
    echo "$seconds s match ($files files), warm run $k: wall $wall s, CPU $cpu s, peak RSS $rss MB"
    grep '^Time:' "$work/last.log" | sed 's/^/    /'
    if [ -z "${best[$seconds]}" ] || awk "BEGIN { exit !($wall < ${best[$seconds]}) }"; then best[$seconds]=$wall; fi
  done
  if [ "${COLD:-1}" = 1 ] && [ "$(id -u)" = 0 ]; then
    sync
    echo 3 > /proc/sys/vm/drop_caches
    read -r wall rss cpu < <(run "$match" "$seconds")
    echo "$seconds s match, cold (page cache dropped): wall $wall s, CPU $cpu s, peak RSS $rss MB"
    grep '^Time:' "$work/last.log" | sed 's/^/    /'
  fi
done
echo "best warm: 60 s match ${best[60]} s, 600 s match ${best[600]} s; ratio 600/60 = $(awk "BEGIN { printf \"%.2f\", ${best[600]} / ${best[60]} }")"
echo "load average while measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
