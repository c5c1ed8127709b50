#!/bin/sh
# Makes the documentation's screenshots (docs/images/*.png) from a simulated match:
# simulate two 20 s matches, reconstruct them, run form, store both as sessions and compare them,
# write the review app with a test video as cam1, and photograph each view in headless Chromium.
#
# Usage: Examples/screenshots/make_screenshots.sh [MATCHSCENE] [IMAGES]
#   MATCHSCENE  the matchscene binary (default: .build/release/matchscene, else matchscene on PATH)
#   IMAGES      where the PNGs go (default: docs/images)
# Needs chromium, ffmpeg and Debian's libjs-three (/usr/share/javascript/three). Works in a temporary
# folder (removed at the end); writes only the PNGs named below into IMAGES.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
  if [ -x "$root/.build/release/matchscene" ]; then bin="$root/.build/release/matchscene"; else bin=matchscene; fi
fi
images=${2:-$root/docs/images}
three=/usr/share/javascript/three
work=$(mktemp -d "${TMPDIR:-/tmp}/matchscene-screenshots.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$images"

for seed in 3 4; do
  "$bin" simulate -o "$work/match$seed" --duration 20 --seed "$seed" > /dev/null
  "$bin" reconstruct "$work/match$seed" -o "$work/out$seed" > /dev/null
  "$bin" form "$work/out$seed" > /dev/null
  "$bin" sessions add "$work/out$seed" --store "$work/sessions.sqlite" --name "match $seed" --player P1=Ana --player P2=Ben > /dev/null
done
"$bin" compare 1 2 --track P1 --store "$work/sessions.sqlite" -o "$work/compare" > /dev/null

# A camera video at the calibrated size and rate (a test pattern with a frame counter).
ffmpeg -v error -f lavfi -i testsrc=size=1920x1080:rate=60 -t 12 -c:v libvpx -deadline realtime -cpu-used 8 -b:v 1M "$work/cam1.webm"
"$bin" open "$work/out3" --three "$three" --no-browser --video "cam1=$work/cam1.webm" > /dev/null

# shot NAME URL: a 1200 × 700 screenshot, reduced to a 256-colour palette (each PNG well under 200 kB).
shot() {
  profile=$(mktemp -d "$work/chromium.XXXXXX")
  chromium --headless=new --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
    --user-data-dir="$profile" --no-first-run --disable-gpu-sandbox --disable-dev-shm-usage \
    --virtual-time-budget=10000 --hide-scrollbars --window-size=1200,700 --screenshot="$work/$1.raw.png" "$2" 2> /dev/null
  ffmpeg -v error -y -i "$work/$1.raw.png" -vf "split[a][b];[a]palettegen=max_colors=256[p];[b][p]paletteuse=dither=none" "$images/$1.png"
  echo "$images/$1.png: $(wc -c < "$images/$1.png") bytes"
}
app="file://$work/out3/index.html"
shot review-3d-match "$app#t=9.5&paused"
shot review-strokes "$app#t=9.5&paused&tab=strokes&stroke=2"
shot review-camera-video "$app#t=9.5&paused&view=cam1"
shot form "file://$work/out3/form.html"
shot compare "file://$work/compare/compare.html"
