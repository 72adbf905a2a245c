"""The display bytes the viewer shows for a pixel of an ACEScg image (--colorspace acescg), in
a real window under Xvfb: the status's `out R G B` and the Pixel section's bytes are one
computation (the colour space -> display transform included), and they equal the bytes of
`hdrtone export --colorspace acescg` at that pixel (within 1). The test first checks that the
transform moves those bytes (the export without --colorspace differs), so bytes computed
without it would fail."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

check = xwin.check
BIN = os.environ["HT_BIN"]
tmp = tempfile.mkdtemp()
os.chdir(tmp)

# Three saturated patches over a grey ramp: ACEScg's primaries are wider than sRGB's, so the
# transform moves these colours' bytes far.
yy, xx = np.mgrid[0:160, 0:240]
rgb = np.dstack([np.exp2(xx / 40.0 - 3)] * 3)
for i, c in enumerate([(0.8, 0.1, 0.05), (0.05, 0.6, 0.1), (0.1, 0.15, 0.9)]):
    rgb[40:120, 20 + 70 * i:80 + 70 * i] = c
xwin.write_pfm("acescg.pfm", rgb.astype(np.float32))
for name, extra in (("with.png", ["--colorspace", "acescg"]), ("without.png", [])):
    subprocess.run([BIN, "export", "acescg.pfm", "-o", name, *extra], check=True)
with_cs = np.asarray(Image.open("with.png").convert("RGB")).astype(int)
without_cs = np.asarray(Image.open("without.png").convert("RGB")).astype(int)


v = xwin.Viewer("acescg.pfm", "--colorspace", "acescg", "--window", "960x600", "--msaa", "1",
                "--keys", "ctrl+0")
seen = []
try:
    vp = v.layout()["viewport"]
    cx, cy = vp[0] + vp[2] // 2, vp[1] + vp[3] // 2
    for dx in (-70, 0, 70):   # the middle of each patch at 1:1
        xwin.xdo("mousemove", "--window", v.wid, cx + dx, cy)
        v.settle()
        seen.append((v.notes("pixel"), v.notes("status")))
finally:
    v.close()

for pixel, status in seen:
    where = [l for l in pixel if l.startswith("pixel ")]
    codes = [l for l in pixel if l.startswith("sRGB ")]
    out = [m for l in status for m in [re.search(r"^pixel (\d+),(\d+) .* out (\d+) (\d+) (\d+)$",
                                                 l)] if m]
    check(where and codes and out, "the Pixel section and the status give the bytes: %s %s"
          % (pixel, status))
    if not (where and codes and out):
        continue
    x, y = (int(w) for w in where[0][6:].split(","))
    sec = [int(w) for w in codes[0].split()[1:4]]
    st = [int(g) for g in out[0].groups()[2:]]
    check((int(out[0].group(1)), int(out[0].group(2))) == (x, y),
          "the status names the same pixel %d,%d" % (x, y))
    check(abs(with_cs[y, x] - without_cs[y, x]).max() > 8,
          "pixel %d,%d: the transform moves its bytes (%s with, %s without)"
          % (x, y, list(with_cs[y, x]), list(without_cs[y, x])))
    check(sec == st, "pixel %d,%d: the status's bytes %s are the Pixel section's %s"
          % (x, y, st, sec))
    check(abs(np.array(st) - with_cs[y, x]).max() <= 1,
          "pixel %d,%d: the bytes shown %s are the export's %s" % (x, y, st, list(with_cs[y, x])))
sys.exit(1 if xwin.fails else 0)
