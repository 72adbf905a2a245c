#!/usr/bin/env bash
# hdrtone bench --open: one JSON object, the open (decode + upload + first frame) beside the
# floor measured in the same run (ratio = open_ms / floor_ms, floor = OpenEXR's decode on all
# cores + the upload), the decode inside the open, and start to the first rows the decode's
# progress tells (first_rows_ms, in loads of their own: before the open's end, after the start),
# for default.exr (ZIP: OpenEXRCore) and a PIZ file (OpenEXR's C++ library); a file it cannot
# load fails naming it; two files are a usage error.
set -u
[[ -n ${HT_HAVE_OPENEXR:-} ]] || { echo "skipped: built without the OpenEXR library"; exit 77; }
img=$HT_SOURCE_DIR/assets/default.exr
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for compression in zip piz; do
f=$img
if [[ $compression == piz ]]; then
  f=$tmp/piz.exr
  "$HT_MAKE_BENCH_EXR" "$img" "$f" 960 540 piz || { echo "FAIL: make_bench_exr"; exit 1; }
fi
out=$("$HT_BIN" bench --open "$f" --runs 3 --json 2>"$tmp/err")
status=$?
if [[ $status -ne 0 ]] && grep -qi "no GPU\|GL\|EGL" "$tmp/err"; then
  echo "skipped: no GL context"; exit 77
fi
[[ $status -eq 0 ]] || { echo "FAIL: exit $status"; cat "$tmp/err"; exit 1; }
python3 - "$out" "$compression" <<'PY' || exit 1
import json, sys
r = json.loads(sys.argv[1])
for k in ("file", "open_ms", "decode_ms", "floor_ms", "ratio", "floor_decode_ms",
          "floor_upload_ms", "width", "height", "first_rows_ms", "compression"):
    assert k in r, (k, r)
assert r["file"].endswith("default.exr" if sys.argv[2] == "zip" else "piz.exr"), r
assert r["compression"] == sys.argv[2].upper(), r
assert 0 < r["first_rows_ms"] < r["open_ms"], r
assert 0 < r["decode_ms"] <= r["open_ms"], r
assert r["floor_ms"] > 0 and abs(r["floor_ms"] - r["floor_decode_ms"] - r["floor_upload_ms"]) < 0.01, r
assert abs(r["ratio"] - r["open_ms"] / r["floor_ms"]) < 0.01, r
print("bench --open %s: open %.1f ms, first rows %.1f ms, floor %.1f ms, ratio %.2f" %
      (r["compression"], r["open_ms"], r["first_rows_ms"], r["floor_ms"], r["ratio"]))
PY
done
printf 'not an image' >"$tmp/bad.exr"
"$HT_BIN" bench --open "$tmp/bad.exr" --runs 3 2>"$tmp/err" >/dev/null
status=$?
[[ $status -eq 1 ]] || { echo "FAIL: exit $status with a bad file, not 1"; exit 1; }
grep -q "bad.exr" "$tmp/err" || { echo "FAIL: the error does not name the file"; cat "$tmp/err"; exit 1; }
"$HT_BIN" bench --open "$img" "$img" 2>/dev/null >/dev/null
[[ $? -eq 2 ]] || { echo "FAIL: two files are not a usage error"; exit 1; }
text=$("$HT_BIN" bench --open "$img" --runs 3) || { echo "FAIL: text: $text"; exit 1; }
grep -q "first tone-mapped frame after" <<<"$text" || { echo "FAIL: text output: $text"; exit 1; }
grep -q "first rows told by the decode's progress after" <<<"$text" || { echo "FAIL: text: $text"; exit 1; }
echo ok
