#!/usr/bin/env bash
# MatchScene quick start for Debian 12 with Swift 6.3.
#   ./quickstart.sh        install what is missing, build, simulate the demo match, reconstruct it
#   ./quickstart.sh test   install what is missing (test tools included) and run the whole test suite
#   ./quickstart.sh opensim  install OpenSim's Python package for `matchscene opensim` (.build/opensim)
# Run as root, or as a user who may use sudo (apt-get is called through sudo then).
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-demo}
# The C++ kernels (Eigen) optimised as the library's users get them in a release build, in every build this
# script makes. On the command line, not in Package.swift: SwiftPM refuses unsafe flags in a package that
# others depend on by version. Without them a debug build runs the kernels at -O0 (bundle adjustment tests
# take minutes instead of seconds).
cxx_flags=(-Xcxx -O3 -Xcxx -fno-math-errno)
# ffmpeg at run time: calibration images other than PGM and calibration videos are decoded with it, and the
# video overlay encodes with it.
runtime_packages=(pkg-config libeigen3-dev libassimp-dev libopencv-dev ffmpeg)
# The real-browser test: headless Chromium (WebGL through SwiftShader) and Debian's three.js r111.
# The session-store tests check the file with the sqlite3 shell (PRAGMA integrity_check).
# python3-venv: the independent C3D readers (PyPI `c3d`, `ezc3d`) go in a virtual environment in .build/.
# slurm-wlm, munge: the batch test starts a private single-node Slurm cluster (as root).
# The Blender tests open the scenes in Debian's Blender 3.4 (its glTF importer needs python3-numpy).
# The tests decode screenshots with ffmpeg (a runtime package above).
test_packages=(chromium libjs-three sqlite3 python3 python3-venv slurm-wlm munge blender python3-numpy godot3 xvfb xauth)
python_tools=(c3d==0.6.0 ezc3d==1.7.2)

install_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Python readers the tests check our files with, in .build/python-tools (never the system's Python).
install_python_tools() {
  local venv=.build/python-tools
  if ! "$venv/bin/python" -c "import c3d, ezc3d" 2>/dev/null; then
    echo "Installing Python test tools: ${python_tools[*]}"
    mkdir -p .build
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "${python_tools[@]}"
  fi
}

# OpenSim's Python package (PyPI `opensim`, about 250 MB installed) for `matchscene opensim`, in its own
# virtual environment .build/opensim, where the command looks for it (never the system's Python).
install_opensim() {
  local venv=.build/opensim
  if ! "$venv/bin/python" -c "import opensim, numpy" 2>/dev/null; then
    echo "Installing OpenSim's Python package (opensim, numpy) in $venv"
    mkdir -p .build
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q opensim numpy
  fi
}

case "$mode" in
  opensim)
    install_missing python3 python3-venv
    install_opensim
    echo "OpenSim $(.build/opensim/bin/python -c 'import opensim; print(opensim.__version__)') in .build/opensim:"
    echo "  matchscene opensim <reconstruct output>"
    ;;
  demo)
    install_missing "${runtime_packages[@]}"
    swift build -c release "${cxx_flags[@]}" --product matchscene
    bin=.build/release/matchscene
    "$bin" simulate --duration 30 --seed 1 --force -o demo/match
    "$bin" reconstruct demo/match -o demo/out
    "$bin" evaluate demo/out --truth demo/match/truth
    echo
    echo "3D scene:  $(pwd)/demo/out/scene.glb"
    echo "3D tracks: $(pwd)/demo/out/tracks.csv"
    ;;
  test)
    install_missing "${runtime_packages[@]}" ${test_packages[@]+"${test_packages[@]}"}
    install_python_tools
    install_opensim
    # Every tier: unit, integration (the CLI end to end on the release binary) and tools (Blender,
    # Chromium, Slurm, ffmpeg, the Python readers, a package depending on MatchScene by version).
    # One optimised build serves them all: `swift test -c release` builds the library, the tests (with
    # testable imports) and the `matchscene` binary the integration tier runs, before any test starts.
    # The daily loop is plain `swift test`: the unit tier alone, in a debug build.
    # XCTest only: the project has no Swift Testing tests, and its empty run would close the log.
    MATCHSCENE_TEST_TIERS=all MATCHSCENE_BINARY="$(pwd)/.build/release/matchscene" \
      swift test -c release "${cxx_flags[@]}" --disable-swift-testing
    # Fuzzing: every reader and the triangulation shim's C API, 4 s each (about a minute).
    Tests/Fuzz/run.sh 4
    ;;
  *)
    echo "usage: $0 [demo|test|opensim]" >&2
    exit 2
    ;;
esac
