#!/usr/bin/env bash
# `matchscene reconstruct` of this build against a baseline build, on the same simulated match, in the
# same run: the two binaries alternate (baseline, candidate, baseline, …) so that both see the same
# machine load, and the ratios candidate / baseline of the median wall and CPU (user + system) times
# are printed.
#
#   Examples/benchmarks/reconstruct_vs_baseline.sh BASELINE_BINARY [CANDIDATE_BINARY] [SECONDS]
#
# Defaults: the candidate is .build/release/matchscene, the match 600 s (seed 1, 4 cameras, 60 fps),
# simulated once into $WORK (default /tmp/matchscene-speed) by the baseline binary and kept.
# RUNS (default 3) sets the runs per binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
baseline=${1:?usage: $0 BASELINE_BINARY [CANDIDATE_BINARY] [SECONDS]}
candidate=${2:-.build/release/matchscene}
seconds=${3:-600}
work=${WORK:-/tmp/matchscene-speed}
runs=${RUNS:-3}
mkdir -p "$work"
match="$work/m$seconds"
if [ ! -f "$match/match.toml" ]; then
  echo "simulating a $seconds s match into $match ..."
  "$baseline" simulate --duration "$seconds" --seed 1 -o "$match" --force > /dev/null
fi

# One run: appends "wall_s cpu_s rss_mb" to $work/<name>.times.
run() {
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$1" reconstruct "$match" -o "$work/out-$2" --force > /dev/null
  awk '{ printf "%.2f %.1f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/time.txt" >> "$work/$2.times"
}

rm -f "$work/baseline.times" "$work/candidate.times"
run "$baseline" warm > /dev/null  # warms the page cache
rm -f "$work/warm.times"
for k in $(seq "$runs"); do
  run "$baseline" baseline
  run "$candidate" candidate
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for name in baseline candidate; do
  wall=$(cut -d' ' -f1 "$work/$name.times" | median)
  cpu=$(cut -d' ' -f2 "$work/$name.times" | median)
  rss=$(cut -d' ' -f3 "$work/$name.times" | median)
  echo "$name: median wall $wall s, CPU $cpu s, peak RSS $rss MB over $runs runs"
  eval "${name}_wall=$wall ${name}_cpu=$cpu"
done
echo "candidate / baseline: wall $(awk "BEGIN { printf \"%.3f\", $candidate_wall / $baseline_wall }")," \
  "CPU $(awk "BEGIN { printf \"%.3f\", $candidate_cpu / $baseline_cpu }")"
echo "load average while measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
