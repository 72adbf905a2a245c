#!/usr/bin/env bash
# hdrtone bench --playback on a sequence of half-float EXR frames: one JSON object, every
# frame played, and every frame's upload from the upload ring (direct_uploads == frames):
# the first ones too, decoded before the ring had buffers (seq_decoder_start with a
# pipeline), none through the memory pool and a copy on the GL thread.
set -u
[[ -n ${HT_HAVE_OPENEXR:-} ]] || { echo "skipped: built without the OpenEXR library"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
frames=8
for ((f = 0; f < frames; f++)); do
  "$HT_MAKE_BENCH_EXR" "$HT_SOURCE_DIR/assets/default.exr" "$(printf "$tmp/shot.%04d.exr" $f)" \
    320 200 piz 2>"$tmp/err" || { echo "FAIL: make_bench_exr: $(cat "$tmp/err")"; exit 1; }
done
out=$("$HT_BIN" bench --playback "$tmp/shot.%04d.exr" --json 2>"$tmp/err")
status=$?
if [[ $status -ne 0 ]] && grep -qi "no GPU\|GL\|EGL" "$tmp/err"; then
  echo "skipped: no GL context"; exit 77
fi
[[ $status -eq 0 ]] || { echo "FAIL: exit $status"; cat "$tmp/err"; exit 1; }
python3 - "$out" "$frames" <<'PY' || exit 1
import json, sys
r, frames = json.loads(sys.argv[1]), int(sys.argv[2])
assert r["frames"] == frames and r["failed"] == 0 and r["fps"] > 0, r
assert r["direct_uploads"] == frames, ("frames uploaded from the pool", r)
print("bench --playback: %d frames, %d from the upload ring, %.1f frames/s" %
      (r["frames"], r["direct_uploads"], r["fps"]))
PY
