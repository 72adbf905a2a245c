"""The histogram's axis and the Pixel section's luminance name cd/m2 only when the
luminances are in cd/m2, in a real window under Xvfb: a PFM (no units: relative) gives
'(relative)', the same file with --scale 179 gives cd/m2."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
check = xwin.check


tmp = tempfile.mkdtemp()
pfm = os.path.join(tmp, "ramp.pfm")
ramp = np.linspace(0.01, 4.0, 64 * 48 * 3, dtype=np.float32).reshape(48, 64, 3)
xwin.write_pfm(pfm, ramp)
for args, unit, other in (((), "(relative)", "cd/m2"), (("--scale", "179"), "cd/m2", "relative")):
    v = xwin.Viewer(pfm, "--window", "800x600", *args)
    try:
        got = v.notes("hist_axis")
        check(len(got) == 1 and got[0].endswith(unit) and other not in got[0],
              "%s: the axis ends '%s': %s" % (args or "no units", unit, got))
        x, y, w, h = v.layout()["viewport"]
        xwin.xdo("mousemove", "--window", v.wid, x + w // 2, y + h // 2)
        v.settle()
        lum = [l for l in v.notes("pixel") if l.startswith("luminance ")]
        check(len(lum) == 1 and lum[0].endswith(unit) and other not in lum[0],
              "%s: the pixel's luminance ends '%s': %s" % (args or "no units", unit, lum))
    finally:
        v.close()
sys.exit(1 if xwin.fails else 0)
