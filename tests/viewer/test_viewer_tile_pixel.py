"""The Pixel section in the side-by-side and grid layouts, in a real window under Xvfb at 1:1
(MSAA 1), on three different 240x160 PFM images: the cursor over a tile reads that tile's
file, not the shown image's at the same place. For the shown tile and each other tile
hovered, the Pixel section and the status name the file ("in b.pfm"), give its RGB at that
pixel (the PFM's floats), and its display bytes, which equal `hdrtone export` of that file at
that pixel and the window's pixel under the cursor (within 1). In the grid a click on a tile
shows its file; a drag on a tile pans and shows the same file."""
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
yy, xx = np.mgrid[0:160, 0:240]
ramp = np.exp2(xx / 30.0 - 5) * (1 + 0.5 * np.sin(yy / 7.0))
IMAGES = {"a.pfm": np.dstack([ramp, ramp * 0.5, ramp * 0.2]),
          "b.pfm": np.dstack([ramp * 4, ramp, ramp * 2])[:, ::-1],
          "c.pfm": np.dstack([ramp[::-1] * 0.3, ramp[::-1], ramp[::-1] * 0.6])}
EXPORT = {}
for name, rgb in IMAGES.items():
    IMAGES[name] = np.ascontiguousarray(rgb).astype(np.float32)
    xwin.write_pfm(name, IMAGES[name])
    subprocess.run([BIN, "export", name, "-o", name + ".png"], check=True)
    EXPORT[name] = np.asarray(Image.open(name + ".png").convert("RGB")).astype(int)


def hover(v, tile, name, dx=13, dy=-9):
    """The cursor near the middle of TILE, which shows NAME: the checks."""
    x, y, w, h = v.layout()[tile]
    mx, my = x + w // 2 + dx, y + h // 2 + dy
    xwin.xdo("mousemove", "--window", v.wid, mx, my)
    v.settle()
    pixel, status = v.notes("pixel"), v.notes("status")
    shot = v.pixels()
    head = re.match(r"pixel (\d+), (\d+)  in (\S+)$", pixel[0] if pixel else "")
    rgb = [l for l in pixel if l.startswith("R ")]
    codes = [l for l in pixel if l.startswith("sRGB ")]
    st = [m for l in status for m in [re.search(r"^pixel (\d+),(\d+)  in (\S+) .* out "
                                                r"(\d+) (\d+) (\d+)$", l)] if m]
    ok = head and rgb and codes and st
    check(ok, "%s: the Pixel section and the status give a pixel: %s | %s"
          % (tile, pixel, status[-1:]))
    if not ok:
        return
    px, py = int(head.group(1)), int(head.group(2))
    check(head.group(3) == name and st[0].group(3) == name,
          "%s: the Pixel section and the status name %s (%s, %s)"
          % (tile, name, head.group(3), st[0].group(3)))
    words = rgb[0].split()
    got = np.array([float(words[words.index(k) + 1]) for k in "RGB"])
    want = IMAGES[name][py, px]
    check(np.allclose(got, want, rtol=1e-3), "%s: RGB %s at %d,%d are %s's (%s)"
          % (tile, got, px, py, name, want))
    sec = [int(w) for w in codes[0].split()[1:4]]
    out = [int(g) for g in st[0].groups()[3:]]
    exp = EXPORT[name][py, px]
    check(sec == out and np.abs(np.array(sec) - exp).max() <= 1,
          "%s: the bytes %s (status %s) are %s's export %s" % (tile, sec, out, name, list(exp)))
    win = shot[my, mx].astype(int)
    check(np.abs(np.array(sec) - win).max() <= 1,
          "%s: the bytes %s are the window's under the cursor %s" % (tile, sec, list(win)))


for layout, files, tiles in (("side-by-side", ["a.pfm", "b.pfm"], ["a.pfm", "b.pfm"]),
                             ("grid", ["a.pfm", "b.pfm", "c.pfm"], ["a.pfm", "b.pfm", "c.pfm"])):
    v = xwin.Viewer(*files, "--layout", layout, "--window", "1100x700", "--msaa", "1",
                    "--keys", "ctrl+0")
    try:
        lay = v.layout()
        names = dict(l.split()[:2] for l in v.notes("tile_name"))
        for i, name in enumerate(tiles):
            check(names.get(str(i)) == name, "%s: tile %d shows %s" % (layout, i, name))
            hover(v, "tile%d" % i, name)
        hover(v, "tile1", "b.pfm", dx=-40, dy=25)   # another pixel of the same tile
        if layout == "grid":   # a click on a tile shows its file; a drag on one only pans
            x, y, w, h = lay["tile2"]
            v.click(x + w // 2, y + h // 2)
            v.wait_loaded()
            v.settle()
            first = (v.notes("status") or [""])[0]
            check(first.startswith("c.pfm ") and "[3/3]" in first,
                  "a click on tile 2 shows c.pfm: %s" % first)
            x, y, w, h = lay["tile0"]
            v.drag(x + w // 2, y + h // 2, x + w // 2 + 30, y + h // 2)
            first = (v.notes("status") or [""])[0]
            check(first.startswith("c.pfm "), "a drag on tile 0 keeps c.pfm shown: %s" % first)
    finally:
        v.close()
sys.exit(1 if xwin.fails else 0)
