#!/usr/bin/env bash
# How fast `matchscene compare` runs over 20 stored sessions of one player (the store warm): 20 simulated
# 60 s matches (seeds 1–20, default noise), each through `reconstruct`, `form` and `sessions add
# --player P1=Ana` into one store, then `compare --player Ana --last 20` timed RUNS times (default 5)
# after one warm-up run; prints each wall time and the median.
#
#   Examples/benchmarks/compare_speed.sh [work folder] [matchscene binary]
#
# Defaults: /tmp/matchscene-compare-speed and .build/release/matchscene (build it with
# `swift build -c release --product matchscene`). The store is built once and kept; DURATION (default 60)
# and SESSIONS (default 20) change the matches.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/matchscene-compare-speed}
bin=${2:-.build/release/matchscene}
runs=${RUNS:-5}
duration=${DURATION:-60}
sessions=${SESSIONS:-20}
mkdir -p "$work"
[ -x "$bin" ] || { echo "no $bin: swift build -c release --product matchscene" >&2; exit 1; }
store="$work/sessions.sqlite"

if [ ! -f "$store" ]; then
  for seed in $(seq "$sessions"); do
    echo "session $seed of $sessions: simulate, reconstruct, form, sessions add ..."
    "$bin" simulate --duration "$duration" --seed "$seed" -o "$work/m$seed" --force > /dev/null
    "$bin" reconstruct "$work/m$seed" -o "$work/o$seed" --force > /dev/null
    "$bin" form "$work/o$seed" > /dev/null
    day=$(printf '2026-01-%02d' "$seed")
    "$bin" sessions add "$work/o$seed" --player P1=Ana --date "$day" --store "$store" > /dev/null
  done
fi

"$bin" compare --player Ana --last "$sessions" -o "$work/compare" --force --store "$store" > "$work/last.log"
times=()
for k in $(seq "$runs"); do
  /usr/bin/time -f "%e" -o "$work/time.txt" "$bin" compare --player Ana --last "$sessions" -o "$work/compare" --force \
    --store "$store" > "$work/last.log"
  t=$(cat "$work/time.txt")
  times+=("$t")
  echo "compare over $sessions sessions, run $k: $t s"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "median %.2f s over %d runs\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), NR }'
