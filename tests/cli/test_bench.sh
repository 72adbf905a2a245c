#!/usr/bin/env bash
# hdrtone bench runs (on llvmpipe here: wall-clock timing), checks the GPU against the CPU
# first, and --json is one JSON object with every pass of the pipeline for each sample count,
# the viewer frame with each way of presenting; with the human-vision options (--human, a
# narrow --fov so that acuity applies at this size) their passes, the apply pass with the
# stage, the acuity pyramid and the options' cost, and what the analysis decided.
set -u
out=$("$HT_BIN" bench --synthetic 96x40 --runs 3 --msaa 4 --json 2>&1) || {
  grep -q "no GPU" <<<"$out" && { echo "skipped: no GPU"; exit 77; }
  echo "FAIL: bench: $out"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
d = json.loads(sys.argv[1])
assert d["width"] == 96 and d["height"] == 40, d
samples = [r["samples"] for r in d["results"]]
assert samples[0] == 1 and len(samples) == 2 and samples[1] > 1, samples
for r in d["results"]:
    names = {p["name"] for p in r["passes"]}
    # range, merge and curve: passes of their own, and merge+curve and the pipeline rows.
    for want in ("histogram", "range", "merge", "curve", "merge+curve", "rebin", "apply",
                 "pipeline", "pipeline, new image", "frame, one timer", "frame, a timer per pass",
                 "pipeline, one-frame latency", "viewer frame", "viewer frame, present by copy",
                 "viewer frame, present by apply", "viewer frame, present by triangle"):
        assert want in names, (want, names)
    assert not any(n.startswith("finish") for n in names), names   # the fused forms are gone
    assert all(p["median_us"] > 0 for p in r["passes"] if p["name"] != "stats: hist_clear"), r
print("bench:", samples, "sample counts,", len(d["results"][0]["passes"]), "rows")
PY
out=$("$HT_BIN" bench --synthetic 192x108 --runs 3 --msaa 4 --human --fov 5 --json 2>&1) || {
  echo "FAIL: bench --human: $out"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
d = json.loads(sys.argv[1])
samples = [r["samples"] for r in d["results"]]
assert samples[0] == 1 and len(samples) == 2 and samples[1] > 1, samples
for r in d["results"]:
    names = {p["name"] for p in r["passes"]}
    assert r["human"]["veil"] == "applied" and r["human"]["acuity"] == "applied" and \
        r["human"]["colour"] == "applied" and r["human"]["pyramid_levels"] >= 1, r["human"]
    want = ["veil", "veil_histogram", "sample_radii", "viewer frame, present by triangle"]
    # The stage runs on the image: in the table of one sample, not on the multisampled scene.
    if r["samples"] == 1:
        want += ["apply (+human stage)", "acuity pyramid (built afresh)",
                 "human: veil+acuity+colour"]
    else:
        want += ["apply"]
    for w in want:
        assert w in names, (w, names)
    assert all(p["median_us"] > 0 for p in r["passes"] if p["name"] != "stats: hist_clear"), r
print("bench --human:", len(d["results"][0]["passes"]), "rows")
PY
"$HT_BIN" bench --synthetic 0x5 >/dev/null 2>&1
[[ $? == 2 ]] || { echo "FAIL: bad size is not a usage error"; exit 1; }
exit 0
