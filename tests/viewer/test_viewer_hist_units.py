"""The histogram's axis names cd/m2 only when the luminances are in cd/m2, in a real window
under Xvfb: a PFM (no units: relative) gives '(relative)', the same file with --scale 179
gives cd/m2."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
check = xwin.check


def axis(v):
    with open(v.layout_path) as f:
        return [l[len("hist_axis: "):].rstrip("\n") for l in f if l.startswith("hist_axis: ")]


tmp = tempfile.mkdtemp()
pfm = os.path.join(tmp, "ramp.pfm")
ramp = np.linspace(0.01, 4.0, 64 * 48 * 3, dtype=np.float32).reshape(48, 64, 3)
xwin.write_pfm(pfm, ramp)
for args, unit, other in (((), "(relative)", "cd/m2"), (("--scale", "179"), "cd/m2", "relative")):
    v = xwin.Viewer(pfm, "--window", "800x600", *args)
    try:
        got = axis(v)
        check(len(got) == 1 and got[0].endswith(unit) and other not in got[0],
              "%s: the axis ends '%s': %s" % (args or "no units", unit, got))
    finally:
        v.close()
sys.exit(1 if xwin.fails else 0)
