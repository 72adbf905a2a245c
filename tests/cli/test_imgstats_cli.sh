#!/usr/bin/env bash
# `hdrtone stats --json` carries the image statistics: the brightest pixel of composite_b.exr
# (negative data-window origin) at the manifest's place, the same brightest/darkest/peaks from
# both backends, and histograms that add up to the pixel count.
set -u
shared=${HT_SHARED:-}
file=$shared/exr-samples/composite_b.exr
[[ -f $file ]] || { echo "skipped: no $file"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
stats() { "$HT_BIN" stats "$file" --json --peaks 5 --min-distance 12 --backend "$1"; }
stats cpu >"$tmp/cpu.json" || { echo "FAIL: stats --backend cpu"; exit 1; }
stats gpu >"$tmp/gpu.json" 2>/dev/null || { echo "skipped: the GPU backend does not run here"; exit 77; }
python3 - "$tmp/cpu.json" "$tmp/gpu.json" <<'PY'
import json, sys
fail = []
parts = []
for path, backend in zip(sys.argv[1:], ("cpu", "gpu")):
    s = json.load(open(path))
    b = s["brightest"]
    if (b["x"], b["y"], b["abs_x"], b["abs_y"]) != (87, 1, 106, -33):
        fail.append("%s: brightest %r, not at the manifest's (87,1) / (106,-33)" % (backend, b))
    if not s.get("peaks"):
        fail.append("%s: no peaks" % backend)
    # The four RGBA arrays and the grey one each add up to the 263x391 pixels.
    hists = list(s["rgba_histogram"]) + [s["grey_histogram"]]
    for k, h in enumerate(hists):
        if len(h) != 256 or sum(h) != 263 * 391:
            fail.append("%s: histogram %d: %d bins, sum %d" % (backend, k, len(h), sum(h)))
    parts.append({k: s[k] for k in ("brightest", "darkest", "peaks")})
if parts[0] != parts[1]:
    fail.append("brightest/darkest/peaks differ between the backends:\ncpu: %r\ngpu: %r" % tuple(parts))
for f in fail:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if fail else 0)
PY
