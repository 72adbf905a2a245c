# Sourced by tests/test_viewer_*.sh: runs the script under Xvfb (re-executing itself through
# xvfb-run), picks the test image, and offers helpers. Exit 77 (skipped) when there is no
# xvfb-run or no image.
set -u
if [[ -z ${HT_IN_XVFB:-} ]]; then
  command -v xvfb-run >/dev/null || { echo "skipped: no xvfb-run"; exit 77; }
  # 1280x1024 so that Desk.exr (644x874) fits at 1:1; 24-bit as PLATFORM.md says.
  HT_IN_XVFB=1 exec xvfb-run -a -s "-screen 0 1280x1024x24" bash "$0" "$@"
fi
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
image=${HT_SHARED:-}/exr-samples/Desk.exr
[[ -f $image ]] || image=${HT_SOURCE_DIR:-}/assets/default.exr
[[ -f $image ]] || { echo "skipped: no test image (Desk.exr or assets/default.exr)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

# shot OUT.png [viewer args...]: a screenshot after the first frames; prints the viewer's
# "screenshot ... at X,Y ..." line.
shot() {
  local out=$1; shift
  timeout 120 "$HT_BIN" view "$image" --screenshot "$out" --frames 2 "$@" 2>>"$tmp/viewer.err"
}

# mean A.png: mean 8-bit value over the whole picture.
mean() { "$HT_PNGDIFF" "$1" "$1" | awk '{print $NF}'; }

# gt X Y: X > Y (floats).
gt() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$1" "$2"; }
