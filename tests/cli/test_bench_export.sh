#!/usr/bin/env bash
# hdrtone bench --export --json: the stages, the process's CPU and the encode's terms (each
# [CPU, wall] ms a frame, encode_terms.h): a PNG's stripes filtered and deflated, an HDR PNG's
# light levels measured, an Ultra HDR JPEG's encode, every file written; with --hdr the SDR
# PNG, the HDR PNG and the Ultra HDR JPEG, then their ratios.
set -u
img=$HT_SOURCE_DIR/assets/default.exr
out=$("$HT_BIN" bench --export "$img" "$img" --hdr pq --backend cpu --json 2>&1) ||
    { echo "FAIL: $out"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
assert len(lines) == 4, sys.argv[1]
sdr, pq, uhdr, ratio = lines
for d in (sdr, pq, uhdr):
    assert d["frames"] == 2, d
    cpu = d["process_cpu_ms_per_frame"]
    assert cpu["user"] > 0 and cpu["sys"] >= 0, cpu
    t = d["encode_terms_ms_per_frame"]
    assert t["write"][0] >= 0 and t["write"][1] > 0, t
for d in (sdr, pq):
    t = d["encode_terms_ms_per_frame"]
    assert t["deflate"][0] > 0 and t["filter"][0] > 0 and t["join"][1] > 0, t
    assert t["uhdr"] == [0, 0], t
assert sdr["encode_terms_ms_per_frame"]["light"][1] < pq["encode_terms_ms_per_frame"]["light"][1]
assert uhdr["encode_terms_ms_per_frame"]["uhdr"][0] > 0, uhdr
assert uhdr["encode_terms_ms_per_frame"]["deflate"] == [0, 0], uhdr
assert ratio["hdr"] == "pq" and ratio["sdr_fps"] > 0, ratio
print("bench --export: PQ deflate %.1f ms a frame, light %.1f" %
      (pq["encode_terms_ms_per_frame"]["deflate"][0], pq["encode_terms_ms_per_frame"]["light"][0]))
PY
text=$("$HT_BIN" bench --export "$img" --backend cpu 2>&1) || { echo "FAIL: text: $text"; exit 1; }
grep -q "the encode's terms, ms of CPU (wall) a frame: .*deflate" <<<"$text" ||
    { echo "FAIL: text output: $text"; exit 1; }
# On the GPU (llvmpipe here): each frame's moments in order, and the first of files enough to
# keep every worker busy decoded alone (batch.c, decode_regime) before the next one starts.
exr=$("$HT_BIN" bench --export "$img" "$img" "$img" --backend gpu --jobs 2 --json 2>&1)
if [[ $? -eq 0 ]]; then
python3 - "$exr" <<'PY' || exit 1
import json, sys
d = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")][0]
m = d["timeline_ms"]["moments"]
assert m[:4] == ["decode_start", "buffer_asked", "buffer_got", "decoded"], m
frames = d["timeline_ms"]["frames"]
assert len(frames) == 3, frames
for f in frames:
    at = dict(zip(m, f))
    seq = [at["decode_start"], at["decoded"], at["gl_start"], at["gl_issued"], at["mapped"],
           at["encode_start"], at["done"]]
    assert seq == sorted(seq), at
    if at["buffer_got"] > 0:   # a direct upload: the decode waited between these two
        assert at["decode_start"] <= at["buffer_asked"] <= at["buffer_got"] <= at["decoded"], at
assert frames[1][0] >= frames[0][3], "the second decode began before the first ended: %s" % frames
PY
else
    echo "no GPU here: the timeline check skipped ($exr)" | head -3
fi
echo ok
