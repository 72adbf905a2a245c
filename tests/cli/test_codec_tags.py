"""SDR JPEG XL and AVIF output is tagged with the display it was made for (src/io/jxl_out.c,
avif_out.c): for every --display-space value (the list read from hdrtone's own refusal of a bad
one, so a new space is tested too) and the transfers --transfer gives, libjxl-tools' jxlinfo
reports the primaries and transfer function asked for, and djxl decodes the pixels to the PNG
export's of the same options (8- and 16-bit, lossless); libavif-bin's avifdec --info reports the
CICP primaries asked for and the transfer (gamma 2.4, which H.273 has no code point for:
unspecified, with an ICC profile whose curve, read here from the PNG avifdec writes, is 2.4)."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
samples = htpy.samples_or_skip()
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_codectags_")
src = os.path.join(samples, "Desk.exr")

# jxlinfo's words for each space's primaries and its default curve (colour.h).
PRIMARIES = {"srgb": "sRGB primaries", "display-p3": "P3 primaries",
             "rec2020": "Rec.2100 primaries", "rec709-gamma24": "sRGB primaries"}
CURVE = {"srgb": "sRGB transfer function", "display-p3": "sRGB transfer function",
         "rec2020": "gamma(0.416667) transfer function",
         "rec709-gamma24": "gamma(0.416667) transfer function"}
CICP_PRIMARIES = {"srgb": 1, "display-p3": 12, "rec2020": 9, "rec709-gamma24": 1}
CICP_CURVE = {"srgb": 13, "display-p3": 13, "rec2020": 2, "rec709-gamma24": 2}   # 2: the ICC's
CICP_TRANSFERS = {"srgb": 13, "gamma:2.2": 4, "gamma:2.8": 5}
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


def avif_info(path):
    """avifdec --info's CICP primaries and transfer, and the ICC profile's red curve as a
    gamma (None: no profile) from the PNG avifdec decodes it to."""
    r = subprocess.run(["avifdec", "--info", path], capture_output=True, text=True)
    check(r.returncode == 0, "avifdec --info %s: %s" % (path, r.stderr))
    num = {k: int(re.search(k + r"\s*:\s*(\d+)", r.stdout).group(1))
           for k in ("Color Primaries", "Transfer Char.") if re.search(k + r"\s*:\s*\d", r.stdout)}
    png = path + ".png"
    subprocess.run(["avifdec", path, png], capture_output=True)
    data = open(png, "rb").read() if os.path.exists(png) else b""
    at = data.find(b"iCCP")
    if at < 0:
        return num.get("Color Primaries"), num.get("Transfer Char."), None
    n = struct.unpack(">I", data[at - 4:at])[0]
    chunk = data[at + 4:at + 4 + n]
    icc = zlib.decompress(chunk[chunk.index(b"\0") + 2:])
    count = struct.unpack(">I", icc[128:132])[0]
    gamma = None
    for k in range(count):
        sig, off, size = struct.unpack(">4sII", icc[132 + 12 * k:144 + 12 * k])
        if sig == b"rTRC" and icc[off:off + 4] == b"curv" and \
                struct.unpack(">I", icc[off + 8:off + 12])[0] == 1:
            gamma = struct.unpack(">H", icc[off + 12:off + 14])[0] / 256
        elif sig == b"rTRC" and icc[off:off + 4] == b"para":
            gamma = struct.unpack(">i", icc[off + 12:off + 16])[0] / 65536
    return num.get("Color Primaries"), num.get("Transfer Char."), gamma


for tool in ("jxlinfo", "djxl", "avifdec"):   # scripts/setup installs them: missing is a failure
    check(shutil.which(tool), "%s is not installed (scripts/setup)" % tool)
if htpy.failures:
    htpy.finish("test_codec_tags")
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
        if not export(base + ".avif", *opts):
            continue
        prim, tc, gamma = avif_info(base + ".avif")
        want = (CICP_PRIMARIES.get(ds), CICP_TRANSFERS[tr] if tr else CICP_CURVE.get(ds))
        check((prim, tc) == want, "%s: avifdec says primaries %s, transfer %s, not %s"
              % (opts, prim, tc, want))
        check((gamma is not None and abs(gamma - 2.4) < 2 / 256) == (tc == 2),
              "%s: the AVIF's ICC curve %s (wanted with transfer 2 alone: gamma 2.4)"
              % (opts, gamma))
htpy.finish("test_codec_tags")
