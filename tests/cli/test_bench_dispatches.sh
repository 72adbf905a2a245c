#!/usr/bin/env bash
# hdrtone bench --dispatches: a table of the frame's pieces of GPU work in order, each with its
# program's name; with the human-vision options (a narrow --fov so that acuity applies at this
# size) their pieces (foveal image, veil, radii, check2do's read-back, the fence wait), then the
# frame without them, which has none of those; without the options one table; --json refused.
set -u
out=$("$HT_BIN" bench --synthetic 192x108 --runs 3 --msaa 1 --human --fov 5 --dispatches 2>&1) || {
  grep -q "no GPU" <<<"$out" && { echo "skipped: no GPU"; exit 77; }
  echo "FAIL: bench --dispatches: $out"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import re, sys
text = sys.argv[1]
tables = re.split(r"\n(?=frame[^\n]*: the frame's GPU work)", "\n" + text.strip())
tables = [t for t in tables if t.strip()]
assert len(tables) == 2, text
def rows(t):
    out = []
    for line in t.splitlines():
        m = re.match(r"\s*(\d+)\s+(.+?)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)$", line)
        if m:
            out.append((int(m[1]), m[2], float(m[3]), float(m[4]), float(m[5])))
    return out
human, plain = rows(tables[0]), rows(tables[1])
assert [r[0] for r in human] == list(range(len(human))), human
for want in ("histogram.comp", "veil.comp", "foveal.comp", "sample_radii.comp", "curve.comp",
             "apply.comp", "read-back", "fence wait"):
    assert any(want in r[1] for r in human), (want, human)
for gone in ("veil.comp", "foveal.comp", "sample_radii.comp", "read-back", "fence wait"):
    assert not any(gone in r[1] for r in plain), (gone, plain)
assert any("apply.comp" in r[1] for r in plain), plain
assert all(r[2] >= 0 and r[3] >= 0 for r in human + plain), human + plain
assert len(human) > len(plain), (len(human), len(plain))
spans = re.findall(r"GPU span ([\d.]+) us", text)
assert len(spans) == 2 and all(float(s) > 0 for s in spans), spans
print("bench --dispatches:", len(human), "pieces with the options,", len(plain), "without")
PY
out=$("$HT_BIN" bench --synthetic 96x40 --runs 3 --msaa 1 --dispatches 2>&1) || {
  echo "FAIL: bench --dispatches without options: $out"; exit 1; }
n=$(grep -c "the frame's GPU work" <<<"$out")
[[ $n == 1 ]] || { echo "FAIL: $n tables without the options: $out"; exit 1; }
"$HT_BIN" bench --synthetic 96x40 --dispatches --json >/dev/null 2>&1
[[ $? == 2 ]] || { echo "FAIL: --dispatches --json is not a usage error"; exit 1; }
exit 0
