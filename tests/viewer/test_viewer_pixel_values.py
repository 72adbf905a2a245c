"""Values drawn on the pixels at high zoom (tev's), in a window under Xvfb: zoomed to 64 screen
pixels a pixel, every visible pixel shows its R, G, B (the HT_TEST_LAYOUT hook's count is the
number of visible pixels, and the middle one's values equal `hdrtone stats --pixel`), and the
middle pixel's cell in the screenshot has text on it; at 32 pixels a pixel and at fit nothing
is drawn (the same cell is flat)."""
import json
import os
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
image = os.path.join(os.environ["HT_SOURCE_DIR"], "assets", "default.exr")
tmp = tempfile.mkdtemp()


def shot(name, keys, size="1280x800"):
    """The screenshot's pixels, the viewport (x, y, w, h) and the pixel_values hook line."""
    layout = os.path.join(tmp, name + ".layout")
    png = os.path.join(tmp, name + ".png")
    args = [BIN, "view", image, "--window", size, "--msaa", "1", "--screenshot", png]
    r = subprocess.run(args + (["--keys", keys] if keys else []), capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, HT_TEST_LAYOUT=layout))
    if r.returncode:
        print("skipped: the viewer failed:", r.stderr)
        sys.exit(xwin.SKIP)
    lines = open(layout).read().splitlines()
    vp = [int(t) for t in lines[0].split()[1:]]
    values = [l.split()[1:] for l in lines if l.startswith("pixel_values: ")]
    return np.asarray(Image.open(png).convert("RGB")).astype(int), vp, values


def text_pixels(px, cx, cy, half):
    """Pixels of the cell around (CX, CY) far from its median: the drawn text's."""
    cell = px[cy - half + 2:cy + half - 2, cx - half + 2:cx + half - 2]
    return int((np.abs(cell - np.median(cell, axis=(0, 1))).max(axis=2) > 60).sum())


px, vp, values = shot("z64", "0 equal equal equal equal equal equal")
check(len(values) == 1, "at 64 pixels a pixel the values are drawn: %s" % values)
if values:
    n, x, y, sx, sy = (int(t) for t in values[0][:5])
    rgb = [float(t) for t in values[0][5:]]
    lo = (vp[2] // 64) * (vp[3] // 64)
    hi = (vp[2] // 64 + 2) * (vp[3] // 64 + 2)
    check(lo <= n <= hi, "%d labels: every visible pixel (%d..%d in a %dx%d viewport)"
          % (n, lo, hi, vp[2], vp[3]))
    r = subprocess.run([BIN, "stats", image, "--pixel", "%d,%d" % (x, y), "--json"],
                       capture_output=True, text=True, check=True)
    want = json.loads(r.stdout)["pixel"]["rgba"][:3]
    check(np.allclose(rgb, want, rtol=1e-6), "pixel %d,%d shows %s = stats --pixel %s"
          % (x, y, rgb, want))
    ink = text_pixels(px, sx, sy, 32)
    check(ink > 40, "its cell at %d,%d has text on it (%d ink pixels)" % (sx, sy, ink))
    px32, vp32, values32 = shot("z32", "0 equal equal equal equal equal")
    check(values32 == [], "at 32 pixels a pixel no values are drawn: %s" % values32)
    flat = text_pixels(px32, vp32[0] + vp32[2] // 2, vp32[1] + vp32[3] // 2, 16)
    check(flat == 0, "the middle cell at 32 pixels a pixel is flat (%d ink pixels)" % flat)
_, _, fit = shot("fit", "")
check(fit == [], "at fit no values are drawn: %s" % fit)
_, _, small = shot("z64_small", "0 equal equal equal equal equal equal", "640x400")
check(len(small) == 1 and int(small[0][0]) < int(values[0][0]) if values else False,
      "640x400 at 64 pixels a pixel: fewer labels (%s)" % small)
sys.exit(1 if xwin.fails else 0)
