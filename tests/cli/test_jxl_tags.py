"""SDR JPEG XL output is tagged with the display it was made for (src/io/jxl_out.c): for every
--display-space value (the list read from hdrtone's own refusal of a bad one, so a new space is
tested too) and the transfers --transfer gives, libjxl-tools' jxlinfo reports the primaries and
transfer function asked for, and djxl decodes the pixels to the PNG export's of the same options
(8- and 16-bit, lossless)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
samples = htpy.samples_or_skip()
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_jxltags_")
src = os.path.join(samples, "Desk.exr")

# jxlinfo's words for each space's primaries and its default curve (colour.h).
PRIMARIES = {"srgb": "sRGB primaries", "display-p3": "P3 primaries",
             "rec2020": "Rec.2100 primaries", "rec709-gamma24": "sRGB primaries"}
CURVE = {"srgb": "sRGB transfer function", "display-p3": "sRGB transfer function",
         "rec2020": "gamma(0.416667) transfer function",
         "rec709-gamma24": "gamma(0.416667) transfer function"}
TRANSFERS = {"srgb": "sRGB transfer function", "gamma:2.2": "gamma(0.454545) transfer function",
             "gamma:2.8": "gamma(0.357143) transfer function"}


def export(out, *opts):
    r = subprocess.run([BIN, "export", src, "-o", out] + list(opts), capture_output=True,
                       text=True)
    check(r.returncode == 0, "export %s %s: %s" % (out, opts, r.stderr))
    return r.returncode == 0


def spaces():
    r = subprocess.run([BIN, "export", src, "-o", os.path.join(tmp, "x.jxl"),
                        "--display-space", "no-such-space"], capture_output=True, text=True)
    m = re.search(r"is not one of ([\w|-]+)", r.stderr)
    check(r.returncode != 0 and m, "a bad --display-space is refused naming the spaces: %s"
          % r.stderr)
    return m.group(1).split("|") if m else list(PRIMARIES)


def colour_line(path):
    r = subprocess.run(["jxlinfo", path], capture_output=True, text=True)
    check(r.returncode == 0, "jxlinfo %s: %s" % (path, r.stderr))
    return next((l for l in r.stdout.splitlines() if l.startswith("Color space")), r.stdout)


def same_pixels(jxl, png, what):
    dec = jxl[:-4] + "_djxl.png"
    r = subprocess.run(["djxl", jxl, dec], capture_output=True, text=True)
    check(r.returncode == 0, "djxl %s: %s" % (jxl, r.stderr))
    if r.returncode:
        return
    a, b = htpy.png_codes(dec), htpy.png_codes(png)
    check(a.shape == b.shape and np.array_equal(a, b),
          "%s: djxl's pixels differ from the PNG export's (max %s)"
          % (what, np.abs(a - b).max() if a.shape == b.shape else (a.shape, b.shape)))


for tool in ("jxlinfo", "djxl"):   # scripts/setup installs them: missing is a failure
    check(shutil.which(tool), "%s is not installed (scripts/setup)" % tool)
if htpy.failures:
    htpy.finish("test_jxl_tags")
for ds in spaces():
    check(ds in PRIMARIES, "a display space this test does not know: %s" % ds)
    for tr in [None] + list(TRANSFERS):
        opts = ["--display-space", ds] + (["--transfer", tr] if tr else [])
        want = "%s, %s" % (PRIMARIES.get(ds), TRANSFERS[tr] if tr else CURVE.get(ds))
        for depth in ("8", "16") if tr is None else ("8",):
            base = os.path.join(tmp, "%s_%s_%s" % (ds, (tr or "default").replace(":", ""), depth))
            if not export(base + ".jxl", *opts, "--depth", depth):
                continue
            line = colour_line(base + ".jxl")
            check(want in line, "%s: jxlinfo says '%s', not '%s'" % (opts, line, want))
            if tr is None and export(base + ".png", *opts, "--depth", depth):
                same_pixels(base + ".jxl", base + ".png", " ".join(opts + ["--depth", depth]))
htpy.finish("test_jxl_tags")
