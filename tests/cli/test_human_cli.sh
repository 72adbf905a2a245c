#!/usr/bin/env bash
# The human-vision options on the command line (--veil, --acuity, --color-loss, --human)
# against Radiance pcond's own runs -v, -a, -c, -h and -v -s (pcond-reference/README_human.md),
# through the hdrtone program, for every folder of $HT_SHARED/pcond-reference with
# params_human.tsv, from input_decoded.exr with --preset pcond:
#  - `stats --curve-format pcond` prints pcond's -x file: the same Lw grid (1e-5 relative) and
#    Ld within 0.005 log10 (on the GPU backend where it runs, which then says nothing);
#  - `stats --json`'s "human" object says what pcond's params_human.tsv says (veil, acuity,
#    colour: applied, skipped and why), and its mapping is pcond's;
#  - the GPU backend against the CPU's (where it runs): `export --backend gpu`'s PNG within
#    one step of the CPU's for all but 0.1 % of the channels, `stats --backend gpu --json`'s
#    "human" object the CPU's: the same words, numbers within 1e-5 relative (the GPU's
#    analysis is in float), also for each frame of a sequence's stats; an image in pieces
#    (HT_MAX_PIECE) falls back to the CPU reference, with a note naming the file, and gives
#    the CPU's output (export, stats, a sequence's stats);
# and: venice_sunset_1k, the folder whose input was a Radiance picture, from that .hdr itself
# with --scale 179: its curves are pcond's; the options run on hdrtone's own defaults (pixel
# sampling); bad combinations are usage errors (exit 2) that name the problem.
# (The linear output against pcond's pictures, and the Radiance decodings in-process:
# tests/unit/test_pcond_export.c.)
shared=${HT_SHARED:-}
[[ -d $shared/pcond-reference ]] || { echo "skipped: no $shared/pcond-reference"; exit 77; }
# Debian's interpreter has Debian's python3-numpy and python3-pil (scripts/setup).
py=/usr/bin/python3
[[ -x $py ]] || py=python3
exec "$py" - "$shared" <<'PY'
import json, math, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

BIN = os.environ["HT_BIN"]
REF = os.path.join(sys.argv[1], "pcond-reference")
DESK = os.path.join(REF, "Desk", "input_decoded.exr")
MODES = [("h", ["--human"]), ("v", ["--veil"]), ("a", ["--acuity"]), ("c", ["--color-loss"]),
         ("vs", ["--veil", "--ceiling", "human"])]
CURVE_TOL, GRID_TOL = 0.005, 1e-5
OFF1_MAX = 0.001          # GPU vs CPU PNG: channels more than one step apart
HUMAN_NUM_TOL = 1e-5      # GPU vs CPU "human" numbers, relative
PIECE = "256"             # HT_MAX_PIECE for the image in pieces
PIECES_NOTE = "larger than a texture (in "
tmp = tempfile.mkdtemp(prefix="ht_human_cli.")
failures = []

def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, file=sys.stderr)
    return cond

def run(args, env=None):
    """hdrtone ARGS: (exit status, stdout, stderr)."""
    e = dict(os.environ, **(env or {}))
    p = subprocess.run([BIN] + args, capture_output=True, text=True, env=e, timeout=600)
    return p.returncode, p.stdout, p.stderr

def ok_run(args, env=None, quiet=False):
    st, out, err = run(args, env)
    check(st == 0, "%s failed (%d): %s" % (" ".join(args), st, err))
    if quiet:
        check(err == "", "%s: stderr %r" % (" ".join(args), err))
    return out, err

def params_human(folder):
    """params_human.tsv as {key: {column: value}}, or None."""
    path = os.path.join(REF, folder, "params_human.tsv")
    if not os.path.exists(path):
        return None
    rows = [l.rstrip("\r\n").split("\t") for l in open(path) if l.strip()]
    cols = rows[0]
    return {r[0]: dict(zip(cols[1:], r[1:])) for r in rows[1:]}

def curve_miss(out, path):
    """Our curve (pcond -x form) against pcond's file: the largest |dlog10 Ld|, -1 when the
    grids differ or a side is short of its 100 points."""
    ours = [l.split() for l in out.splitlines() if l.strip()]
    ref = [l.split() for l in open(path) if len(l.split()) >= 2]
    if len(ref) != 100 or len(ours) < 100:
        return -1
    worst = 0.0
    for (lw, ld), (rlw, rld) in zip(ours, ref):
        if abs(float(lw) - float(rlw)) > GRID_TOL * float(rlw):
            return -1
        worst = max(worst, abs(math.log10(float(ld)) - math.log10(float(rld))))
    return worst

def same_but_rounding(a, b):
    """Whether the objects are equal but for numbers within HUMAN_NUM_TOL relative; and the
    largest relative difference."""
    if a.keys() != b.keys():
        return False, 0.0
    worst = 0.0
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and \
                not isinstance(x, bool) and not isinstance(y, bool):
            m = max(abs(x), abs(y))
            rel = abs(x - y) / m if m > 0 else 0.0
            if rel > HUMAN_NUM_TOL:
                return False, rel
            worst = max(worst, rel)
        elif x != y:
            return False, worst
    return True, worst

def png_compare(a, b):
    """Channels, those more than one step apart, the largest difference; None on a size
    mismatch."""
    pa = np.asarray(Image.open(a).convert("RGB"), dtype=np.int32)
    pb = np.asarray(Image.open(b).convert("RGB"), dtype=np.int32)
    if pa.shape != pb.shape:
        return None
    d = np.abs(pa - pb)
    return int(d.size), int((d > 1).sum()), int(d.max()) if d.size else 0

def check_folder(name, params, gpu, worst):
    inp = os.path.join(REF, name, "input_decoded.exr")
    for col, cli in MODES:
        base = ["--preset", "pcond"] + cli
        stats = {}
        for backend in ["cpu"] + (["gpu"] if gpu else []):
            out, _ = ok_run(["stats", "--backend", backend] + base + ["--curve-format", "pcond",
                            inp], quiet=True)
            miss = curve_miss(out, os.path.join(REF, name, "curve_%s.txt" % col))
            check(0 <= miss <= CURVE_TOL, "%s -%s: the %s's curve misses pcond's by %.4f log10 "
                  "(-1: another grid)" % (name, col, backend, miss))
            worst["curve", backend, col] = max(worst.get(("curve", backend, col), 0), miss)
            out, _ = ok_run(["stats", "--backend", backend] + base + ["--json", inp])
            s = json.loads(out)
            stats[backend] = s
            h = s.get("human")
            if not check(h is not None, "%s -%s: no \"human\" object (%s)" % (name, col, backend)):
                continue
            for row in ("veil", "acuity", "colour"):
                want = params.get(row, {}).get(col)
                check(h.get(row) == want, "%s -%s: %s %r, pcond %r (%s)" % (name, col, row,
                      h.get(row), want, backend))
            want = params.get("mapping", {}).get(col)
            got = s.get("tonemap", {}).get("mapping_pcond")
            check(got == want, "%s -%s: mapping %r, pcond %r (%s)" % (name, col, got, want,
                  backend))
        if not gpu or "human" not in stats.get("gpu", {}) or "human" not in stats["cpu"]:
            continue
        same, rel = same_but_rounding(stats["gpu"]["human"], stats["cpu"]["human"])
        check(same, "%s -%s: the GPU's \"human\" object is not the CPU's:\n  gpu %s\n  cpu %s"
              % (name, col, stats["gpu"]["human"], stats["cpu"]["human"]))
        worst["human", col] = max(worst.get(("human", col), 0), rel)
        png = {b: os.path.join(tmp, b + ".png") for b in ("cpu", "gpu")}
        for b in png:
            ok_run(["export", "--backend", b] + base + [inp, "-o", png[b]], quiet=True)
        r = png_compare(png["gpu"], png["cpu"])
        if check(r is not None, "%s -%s: the PNGs differ in size" % (name, col)):
            total, off1, big = r
            check(off1 <= OFF1_MAX * total, "%s -%s: %d of %d channels of the GPU's PNG more "
                  "than one step from the CPU's, largest difference %d" % (name, col, off1,
                  total, big))
            print("  %s -%s GPU vs CPU PNG: %d of %d channels more than one step apart, "
                  "largest difference %d" % (name, col, off1, total, big))

def gpu_runs():
    st, _, err = run(["stats", "--backend", "gpu", DESK])
    if st != 0 and "no GPU" in err:
        print("the GPU backend does not run here: its checks are skipped")
        return False
    return check(st == 0, "stats --backend gpu failed: %s" % err)

def check_pieces():
    """Desk in pieces: export and stats with --human fall back to the CPU reference, saying
    so once with the file's name, and give the CPU backend's PNG and "human" object."""
    note = "%s: %s" % (DESK, PIECES_NOTE)
    png, out = {}, {}
    for b, env in (("cpu", {}), ("gpu", {"HT_MAX_PIECE": PIECE})):
        png[b] = os.path.join(tmp, "pieces_%s.png" % b)
        args = ["--backend", b, "--preset", "pcond", "--human"]
        _, err = ok_run(["export"] + args + [DESK, "-o", png[b]], env)
        check(err.count(note) == (b == "gpu"), "export in pieces (%s): stderr %r" % (b, err))
        out[b], err = ok_run(["stats"] + args + ["--json", DESK], env)
        check(err.count(note) == (b == "gpu"), "stats in pieces (%s): stderr %r" % (b, err))
    r = png_compare(png["gpu"], png["cpu"])
    check(r is not None and r[2] == 0, "in pieces: the PNG is not the CPU backend's (%s)" % (r,))
    g, c = json.loads(out["gpu"]), json.loads(out["cpu"])
    check(g.get("human") == c.get("human"), "in pieces: the \"human\" object is not the CPU's")
    check(g.get("backend") == "cpu", "in pieces: stats names no CPU backend")
    print("Desk in pieces of %s px: export and stats ran the CPU reference (%s)" % (PIECE, r))

def check_sequence():
    """stats of a sequence (two frames of Desk) with --human: the GPU's "human" objects the
    CPU's; in pieces, each frame noted and the output the CPU's."""
    links = [os.path.join(tmp, "shot.%04d.exr" % k) for k in (1, 2)]
    for l in links:
        os.symlink(DESK, l)
    seq = os.path.join(tmp, "shot.%04d.exr")
    note = "%s: %s" % (links[1], PIECES_NOTE)
    outs = []
    for b, env in (("cpu", {}), ("gpu", {}), ("gpu", {"HT_MAX_PIECE": PIECE})):
        out, err = ok_run(["stats", "--backend", b, "--preset", "pcond", "--human", "--json",
                           seq], env)
        check(err.count(note) == (env != {}), "sequence (%s, %s): stderr %r" % (b, env, err))
        outs.append(out)
    cpu = [json.loads(l) for l in outs[0].splitlines() if l.strip()]
    gpu = [json.loads(l) for l in outs[1].splitlines() if l.strip()]
    check(len(cpu) == 2 and len(gpu) == 2, "sequence: %d and %d frames" % (len(cpu), len(gpu)))
    for k, (c, g) in enumerate(zip(cpu, gpu)):
        check("human" in c and "human" in g and same_but_rounding(g["human"], c["human"])[0],
              "sequence frame %d: the GPU's \"human\" object is not the CPU's" % (k + 1))
    check(outs[0] == outs[2], "sequence in pieces: stats is not the CPU backend's")
    for l in links:
        os.remove(l)

def check_radiance_input():
    """venice_sunset_1k from its Radiance picture, --scale 179: the eight runs' curves."""
    hdr = os.path.join(sys.argv[1], "exr-samples", "venice_sunset_1k.hdr")
    runs = [("default", []), ("s", ["--ceiling", "human"]), ("l", ["--linear"]),
            ("h", ["--human"]), ("v", ["--veil"]), ("a", ["--acuity"]), ("c", ["--color-loss"]),
            ("vs", ["--veil", "--ceiling", "human"])]
    print("venice_sunset_1k.hdr --scale 179, the CLI's max |dlog10 Ld| vs pcond:")
    for curve, opts in runs:
        # --backend cpu: the GPU's foveal pass rounds to RGBE in cd/m^2 whatever --scale
        out, _ = ok_run(["stats", "--backend", "cpu", "--preset", "pcond", "--scale", "179"] +
                        opts + ["--curve-format", "pcond", hdr])
        miss = curve_miss(out, os.path.join(REF, "venice_sunset_1k", "curve_%s.txt" % curve))
        print("  %-8s %.4f" % (curve, miss))
        check(0 <= miss <= 0.001, "venice .hdr %s: misses pcond's curve by %.4f" % (curve, miss))

def check_defaults_and_errors():
    """The options on hdrtone's defaults (pixel sampling, Rec. 709), and usage errors."""
    s = json.loads(ok_run(["stats", "--human", "--json", DESK])[0])
    sampling = s.get("tonemap", {}).get("sampling")
    check(sampling == "pixels" and s.get("human", {}).get("veil") == "applied",
          "pixel sampling: %r, veil %r" % (sampling, s.get("human", {}).get("veil")))
    out, _ = ok_run(["stats", "--veil", "--acuity", DESK])
    check("\nhuman         veil applied, acuity " in out, "stats --veil --acuity: no human line")
    check("colour applied" not in out, "stats --veil --acuity: colour applied unasked")
    out, _ = ok_run(["stats", DESK])
    check("\nhuman " not in out, "stats with no option: a human line")
    ok_run(["export", "--human", DESK, "-o", os.path.join(tmp, "d.png"), "--depth", "16"])
    bad = [(["export", "--human", DESK, "-o", tmp + "/x.hdr", "--depth", "16"],
            "--depth is PNG's: hdr holds"),
           (["export", "--veil", DESK, "-o", tmp + "/x.pfm", "--display-window"],
            "pfm holds the linear output"),
           (["export", DESK, "-o", tmp + "/x.png", "--format", "hdr"],
            "names png, --format says hdr"),
           (["export", "--veil=on", DESK, "-o", tmp + "/x.png"], "--veil takes no value"),
           (["analyze", "--human", DESK, "-o", tmp + "/an"], "--human: unknown option")]
    for args, says in bad:
        st, _, err = run(args)
        check(st == 2 and says in err, "%s: exit %d, %r (want %r)" % (" ".join(args), st, err,
              says))

folders = sorted(d for d in os.listdir(REF) if os.path.exists(os.path.join(REF, d, "params.tsv")))
check(len(folders) >= 10, "only %d folders in %s" % (len(folders), REF))
gpu = gpu_runs()
worst = {}
for name in folders:
    params = params_human(name)
    if params:
        print(name)
        check_folder(name, params, gpu, worst)
print("worst over the folders, curve max |dlog10 Ld| (cpu / gpu) and the GPU's \"human\" "
      "numbers' largest relative difference from the CPU's:")
for col, _ in MODES:
    print("  -%-3s %.4f / %.4f; %.2e" % (col, worst.get(("curve", "cpu", col), 0),
          worst.get(("curve", "gpu", col), 0), worst.get(("human", col), 0)))
if gpu:
    check_pieces()
    check_sequence()
check_radiance_input()
check_defaults_and_errors()
subprocess.run(["rm", "-rf", tmp])
print("test_human_cli: %s" % ("ok" if not failures else "%d check(s) failed" % len(failures)))
sys.exit(1 if failures else 0)
PY
