"""hdrtone compare against NVIDIA's FLIP tool on every pair of ../shared/flip-reference
(flip/RESULTS.tsv, the tool's grey maps): the JSON Lines keys, pooled mean within 0.001,
weighted median and quartiles within 0.003, HDR-FLIP's exposures as printed, and -o --map grey
within 1 level of the tool's map on >= 99.5 % of the pixels. HT_COMPARE_BACKEND picks the
backend (default cpu)."""
import json
import os
import subprocess
import sys
import tempfile

from compare_testlib import Image, np

shared = os.environ.get("HT_SHARED", "")
ref_dir = os.path.join(shared, "flip-reference")
tsv = os.path.join(ref_dir, "flip", "RESULTS.tsv")
if not os.path.exists(tsv):
    print("skipped: no flip-reference")
    sys.exit(77)
backend = os.environ.get("HT_COMPARE_BACKEND", "cpu")
# A name prefix, to run a subset; the sanitizers' build (CTest gives it ASAN_OPTIONS, and it
# runs -O0) takes minutes for all 24 pairs: Cannon's there.
only = os.environ.get("HT_COMPARE_ONLY", "Cannon" if "ASAN_OPTIONS" in os.environ else "")
failures = []

rows = {}
with open(tsv) as f:
    header = f.readline().rstrip("\n").split("\t")
    for line in f:
        row = dict(zip(header, line.rstrip("\n").split("\t")))
        if row["reference"].startswith(only):
            rows.setdefault(row["reference"], []).append(row)

KEYS = ["reference", "test", "metric", "mode", "ppd", "mean", "weighted_median", "q1", "q3",
        "min", "max", "mse", "rmse", "psnr", "relmse", "mae"]
HDR_KEYS = ["start_exposure", "stop_exposure", "exposures"]


def check_pair(row, got, out_dir):
    name = row["test"]
    hdr = row["reference"].endswith(".exr")
    for k in KEYS + (HDR_KEYS if hdr else []):
        if k not in got:
            failures.append("%s: no key %s" % (name, k))
            return
    if got["mode"] != ("hdr" if hdr else "ldr"):
        failures.append("%s: mode %s" % (name, got["mode"]))
    tol = {"mean": 0.001, "weighted_median": 0.003, "q1": 0.003, "q3": 0.003, "min": 0.003,
           "max": 0.003}
    if hdr:
        tol.update({"start_exposure": 6e-5, "stop_exposure": 6e-5, "exposures": 0})
    for k, t in tol.items():
        if abs(got[k] - float(row[k])) > t:
            failures.append("%s: %s %.6f, the tool %s" % (name, k, got[k], row[k]))
    if abs(got["ppd"] - float(row["ppd"])) > 0.5:
        failures.append("%s: ppd %s" % (name, got["ppd"]))
    stem = name.rsplit(".", 1)[0]
    ours = np.asarray(Image.open(os.path.join(out_dir, stem + ".png")).convert("L"), int)
    theirs = np.asarray(Image.open(os.path.join(ref_dir, "flip", stem + ".png")).convert("L"),
                        int)
    off = int((abs(ours - theirs) > 1).sum())
    print("%s: mean %.6f (tool %s), %d pixels more than 1 level off" %
          (name, got["mean"], row["mean"], off))
    if off > 0.005 * ours.size:
        failures.append("%s: %d of %d grey-map pixels more than 1 level off" %
                        (name, off, ours.size))


with tempfile.TemporaryDirectory() as tmp:
    for ref, pairs in sorted(rows.items()):
        cmd = [os.environ["HT_BIN"], "compare", os.path.join(ref_dir, ref)]
        cmd += [os.path.join(ref_dir, r["test"]) for r in pairs]
        cmd += ["--json", "-o", tmp, "--map", "grey", "--backend", backend]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            failures.append("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
            continue
        lines = p.stdout.splitlines()
        if len(lines) != len(pairs):
            failures.append("%s: %d JSON lines for %d tests" % (ref, len(lines), len(pairs)))
            continue
        for row, line in zip(pairs, lines):
            got = json.loads(line)
            if os.path.basename(got["test"]) != row["test"]:
                failures.append("%s: line for %s" % (row["test"], got["test"]))
                continue
            check_pair(row, got, tmp)

if sum(len(v) for v in rows.values()) < (24 if not only else 1):
    failures.append("too few pairs in %s" % tsv)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
