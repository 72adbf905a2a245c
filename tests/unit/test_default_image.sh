#!/usr/bin/env bash
# assets/default.exr is exactly what tools/make_default_image.c makes (deterministic), and it is
# the synthetic scene it should be: real dynamic range, under 2 MB.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$HT_MAKE_DEFAULT_IMAGE" "$tmp/default.exr" >/dev/null || { echo "FAIL: generator"; exit 1; }
cmp -s "$tmp/default.exr" "$HT_SOURCE_DIR/assets/default.exr" || {
  echo "FAIL: assets/default.exr differs from the generator's output" \
       "(run: cmake --build build --target default_image)"
  exit 1
}
size=$(stat -c %s "$HT_SOURCE_DIR/assets/default.exr")
(( size < 2000000 )) || { echo "FAIL: default.exr is $size bytes"; exit 1; }
"$HT_BIN" stats "$HT_SOURCE_DIR/assets/default.exr" --json --backend cpu | python3 -c '
import json, sys
s = json.load(sys.stdin)
lo, hi = s["luminance"]["min"], s["luminance"]["max"]
assert lo <= 0.05 and hi >= 3e4, (lo, hi)
assert s["pixels"]["positive_luminance"] == s["pixels"]["total"], s["pixels"]
print("default.exr: Y %.3g .. %.3g" % (lo, hi))' || { echo "FAIL: dynamic range"; exit 1; }
