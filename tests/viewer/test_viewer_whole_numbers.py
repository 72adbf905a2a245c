"""The Compare section's whole-image numbers, in a window under Xvfb: with a reference set it
shows the whole image's FLIP and metrics as `hdrtone compare` prints them for the pair (full
resolution, whatever the zoom), beside the numbers of the picture as shown:
  1. HDR-FLIP mode on ../shared/flip-reference's Cannon.noise.exr against Cannon.ref.exr,
     fitted into a small window (the picture as shown is downsampled): the whole image's FLIP
     mean, median and PSNR are compare's (--backend cpu: to the digits shown; the default
     backend within 5e-4), and the as-shown numbers are there too;
  2. another pair (Cannon.blur.exr) in the wipe at 1:1, where no map is computed: compare's
     values;
  3. three files against the reference in the grid layout: each tile's FLIP mean is
     compare's, and the files read for them are four (the reference once for the three, not
     once per file: the hook's "whole_reads")."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
check = xwin.check
BIN = os.environ["HT_BIN"]
SHARED = os.path.join(os.environ.get("HT_SHARED", ""), "flip-reference")
if not os.path.exists(os.path.join(SHARED, "Cannon.ref.exr")):
    print("skipped (no ../shared): the flip-reference pairs")
    sys.exit(xwin.SKIP)
tmp = tempfile.mkdtemp()


def compare(ref, test, *backend):
    out = subprocess.run([BIN, "compare", *backend, ref, test], capture_output=True, text=True,
                         check=True).stdout
    return {"mean": float(re.search(r"\) mean (\S+)", out).group(1)),
            "median": float(re.search(r"median (\S+)", out).group(1)),
            "psnr": float(re.search(r"PSNR (\S+) dB", out).group(1))}


def hook_lines(args, keys, window):
    """The layout hook's lines of the screenshot run of `view ARGS`."""
    lay = os.path.join(tmp, "layout")
    r = subprocess.run([BIN, "view", *args, "--window", window, "--keys", keys,
                        "--screenshot", os.path.join(tmp, "s.png")], capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, HT_TEST_LAYOUT=lay))
    check(r.returncode == 0, "view: exit %d %s" % (r.returncode, r.stderr[-300:]))
    return open(lay).read().splitlines()


def compare_text(ref, test, keys, window):
    """The layout hook's Compare lines: (the whole image's text, the as-shown text)."""
    lines = hook_lines([test, "--reference", ref], keys, window)
    whole = " ".join(l[len("whole: "):] for l in lines if l.startswith("whole: "))
    shown = " ".join(l[len("compare: "):] for l in lines if l.startswith("compare: "))
    return whole, shown


def check_pair(what, ref, test, keys, window, as_shown):
    cpu, auto = compare(ref, test, "--backend", "cpu"), compare(ref, test)
    whole, shown = compare_text(ref, test, keys, window)
    m = re.search(r"FLIP mean (\S+)\s+median (\S+)", whole)
    p = re.search(r"PSNR (\S+) dB", whole)
    got = (float(m.group(1)), float(m.group(2))) if m else (float("nan"),) * 2
    check(m and "%.4f" % cpu["mean"] == m.group(1) and "%.4f" % cpu["median"] == m.group(2),
          "%s: the whole image's FLIP mean %s median %s = compare --backend cpu's %.6f %.6f"
          % (what, got[0], got[1], cpu["mean"], cpu["median"]))
    check(abs(got[0] - auto["mean"]) <= 5e-4,
          "%s: and compare's default backend's mean %.6f" % (what, auto["mean"]))
    check(p and "%.2f" % cpu["psnr"] == p.group(1),
          "%s: PSNR %s dB = compare's %.2f" % (what, p.group(1) if p else None, cpu["psnr"]))
    if as_shown:
        check("FLIP mean" in shown, "%s: the as-shown numbers beside them: %s" % (what, shown))


check_pair("HDR-FLIP, fitted", os.path.join(SHARED, "Cannon.ref.exr"),
           os.path.join(SHARED, "Cannon.noise.exr"), "f t t t t t t", "640x400", True)
check_pair("wipe, 1:1", os.path.join(SHARED, "Cannon.ref.exr"),
           os.path.join(SHARED, "Cannon.blur.exr"), "ctrl+0", "960x600", False)
REF = os.path.join(SHARED, "Cannon.ref.exr")
TESTS = [os.path.join(SHARED, "Cannon.%s.exr" % n) for n in ("noise", "blur", "shift")]
lines = hook_lines([*TESTS, "--reference", REF, "--layout", "grid"], "f", "1280x800")
whole = "\n".join(l[len("whole: "):] for l in lines if l.startswith("whole: "))
for path in TESTS:
    name = os.path.basename(path)
    m = re.search(re.escape(name) + r":\n\s*FLIP (\S+)", whole)
    want = compare(REF, path, "--backend", "cpu")["mean"]
    check(m and m.group(1) == "%.4f" % want, "grid: %s's whole FLIP mean %s = compare's %.4f"
          % (name, m.group(1) if m else None, want))
reads = [l for l in lines if l.startswith("whole_reads: ")]
check(reads == ["whole_reads: 4"], "grid: the reference read once for three files: %s" % reads)
sys.exit(1 if xwin.fails else 0)
