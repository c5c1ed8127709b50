#!/bin/sh
# Three weekly sessions of Ana (P1) and Ben (P2): simulate, reconstruct, store, compare.
# Usage: Examples/sessions/weekly.sh [work folder] (default /tmp/matchscene-weekly); MATCHSCENE=path/to/matchscene.
# The store is <work>/sessions.sqlite (not your ~/.matchscene one).
set -eu
matchscene=${MATCHSCENE:-.build/release/matchscene}
work=${1:-/tmp/matchscene-weekly}
store="$work/sessions.sqlite"
rm -rf "$work"
mkdir -p "$work"

week=1
for day in 2026-11-02 2026-11-09 2026-11-16; do
  "$matchscene" simulate -o "$work/week$week/match" --duration 60 --seed $((week + 10)) > /dev/null
  "$matchscene" reconstruct "$work/week$week/match" -o "$work/week$week/out" > /dev/null
  if [ $week -lt 3 ]; then
    "$matchscene" sessions add "$work/week$week/out" --date $day --place "Club hall" \
      --player P1=Ana --player P2=Ben --store "$store"
  else
    # Unnamed: add suggests who they are from their limb lengths; then store them named.
    "$matchscene" sessions add "$work/week$week/out" --date $day --store "$store"
    "$matchscene" sessions remove 3 --store "$store"
    "$matchscene" sessions add "$work/week$week/out" --date $day --place "Club hall" \
      --player P1=Ana --player P2=Ben --store "$store"
  fi
  week=$((week + 1))
done

"$matchscene" sessions list --store "$store"
"$matchscene" compare --player Ana --last 3 -o "$work/compare" --store "$store"
echo "open $work/compare/compare.html"
