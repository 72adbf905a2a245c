#!/usr/bin/env bash
# hdrtone bench --decode: one JSON object per file, hdrtone's decode beside the floor measured
# in the same run (ratio = decode_ms / floor_ms), each decoder that reads the file with the
# same pixels; a file it cannot load fails naming it, the others still measured.
set -u
[[ -n ${HT_HAVE_OPENEXR:-} ]] || { echo "skipped: built without the OpenEXR library"; exit 77; }
img=$HT_SOURCE_DIR/assets/default.exr
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'not an image' >"$tmp/bad.exr"
out=$("$HT_BIN" bench --decode "$img" "$tmp/bad.exr" --runs 3 --json 2>"$tmp/err")
status=$?
[[ $status -eq 1 ]] || { echo "FAIL: exit $status with a bad file, not 1"; exit 1; }
grep -q "bad.exr" "$tmp/err" || { echo "FAIL: the error does not name the file"; cat "$tmp/err"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
d = json.loads(sys.argv[1])
assert len(d) == 1, d
r = d[0]
for k in ("file", "compression", "decode_ms", "floor_ms", "ratio", "decoder", "decoders"):
    assert k in r, (k, r)
# ZIP: OpenEXRCore straight to half (the C++ library is not used for ZIP), tinyexr beside it.
assert r["compression"] == "ZIP" and r["decoder"] == "OpenEXRCore", r
assert r["decode_ms"] > 0 and r["floor_ms"] > 0, r
assert abs(r["ratio"] - r["decode_ms"] / r["floor_ms"]) < 0.01, r
assert r["identical"] is True, r
ran = [k for k, v in r["decoders"].items() if v is not None]
assert set(ran) == {"OpenEXRCore", "tinyexr"}, r["decoders"]
print("bench --decode: ratio %.2f, decoders %s" % (r["ratio"], ran))
PY
text=$("$HT_BIN" bench --decode "$img" --runs 3) || { echo "FAIL: text: $text"; exit 1; }
grep -q "default.exr *ZIP" <<<"$text" || { echo "FAIL: text output: $text"; exit 1; }
echo ok
