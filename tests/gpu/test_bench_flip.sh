#!/usr/bin/env bash
# hdrtone bench's FLIP rows (bench_flip.h): checked against the CPU first, then LDR-FLIP,
# HDR-FLIP and the comparison frames timed, in the JSON's "flip" member.
set -u
out=$("$HT_BIN" bench --synthetic 64x48 --runs 3 --msaa 1 --json 2>&1) || {
  grep -q "no GPU" <<<"$out" && { echo "skipped: no GPU"; exit 77; }
  echo "FAIL: bench: $out"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
f = d["flip"]
names = [p["name"] for p in f["passes"]]
assert names[0] == "FLIP: LDR-FLIP" and names[1].startswith("FLIP: HDR-FLIP, "), names
assert "compare frame: LDR-FLIP map + numbers" in names, names
assert "compare frame: difference map + numbers" in names, names
assert "compare frame: FLIP reused, new rectangle" in names, names
assert f["flip_exposures"] >= 2, f
assert all(p["median_us"] > 0 and p["ratio"] > 0 for p in f["passes"]), f
print("bench FLIP rows:", names)
PY
