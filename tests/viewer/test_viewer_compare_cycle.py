"""The comparison modes' cycle with MSAA on (the default 4 samples), in a real window under
Xvfb: with a reference set (two 240x160 PFM images, the test one with noise), T pressed eight
times goes wipe -> difference -> absolute -> squared -> relative -> LDR-FLIP -> HDR-FLIP ->
off -> wipe, each press the next mode (none skipped), each error map ending in its own numbers
(HDR-FLIP's not LDR-FLIP's); and where a mode changes the picture's samples (the error maps of
the linear pictures compare one sample a pixel) the status bar and the Compare section say so,
while wipe, LDR-FLIP and off keep MSAA 4 and say nothing."""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

check = xwin.check
tmp = tempfile.mkdtemp()
yy, xx = np.mgrid[0:160, 0:240]
ref = np.dstack([np.exp2(xx / 30.0 - 4), np.exp2(yy / 30.0 - 3), np.full(xx.shape, 0.3)])
noise = np.random.default_rng(7).normal(1.0, 0.15, ref.shape).clip(0.1, 2)
for name, rgb in (("ref.pfm", ref), ("test.pfm", ref * noise)):
    xwin.write_pfm(os.path.join(tmp, name), rgb.astype(np.float32))
ORDER = ["difference", "absolute", "squared", "relative", "flip", "hdr-flip", "off", "wipe"]
LINEAR = {"difference", "absolute", "squared", "relative", "hdr-flip"}
NOTE = "asked 4: error map"


def state(v):
    """The mode named, the numbers, the status bar's first line and the MSAA note."""
    lines = open(v.layout_path).read().splitlines()
    get = lambda name: [l[len(name) + 2:] for l in lines if l.startswith(name + ": ")]
    mode = (get("compare_mode") or [None])[0]
    return mode, " | ".join(get("compare")), (get("status") or [""])[0], get("compare_msaa")


def wait_for(v, ok, timeout):
    end = time.time() + timeout
    s = state(v)
    while not ok(s) and time.time() < end:
        time.sleep(0.1)
        s = state(v)
    return s


v = xwin.Viewer(os.path.join(tmp, "test.pfm"), "--reference", os.path.join(tmp, "ref.pfm"),
                "--window", "960x600")
numbers = {}
try:
    mode, _, status, msaa = state(v)
    check(mode == "wipe" and "MSAA 4" in status and not msaa,
          "a reference starts the wipe with MSAA 4 (%s; %s)" % (mode, status))
    for want in ORDER:
        xwin.xdo("key", "--window", v.wid, "t")
        mode, nums, status, msaa = wait_for(v, lambda s: s[0] == want, 10)
        check(mode == want, "T: the next mode %s (the window names %s)" % (want, mode))
        if want in ("off", "wipe"):
            v.settle(0.5)
            mode, nums, status, msaa = state(v)
        else:   # its own numbers, after 'computing' at most
            mode, nums, status, msaa = wait_for(
                v, lambda s: s[1] and "computing" not in s[1], 60)
            check(("FLIP mean" in nums) == (want in ("flip", "hdr-flip")) and "MSE" in nums,
                  "%s: its numbers (%s)" % (want, nums[:70]))
            numbers[want] = nums
        if want in LINEAR:
            check("MSAA 1 (%s)" % NOTE in status and msaa and "MSAA 1, not 4" in msaa[0],
                  "%s: the status and the Compare section say why MSAA is 1 (%s; %s)"
                  % (want, status, msaa))
        else:
            check("MSAA 4 " in status and not msaa,
                  "%s: MSAA 4 and no note (%s; %s)" % (want, status, msaa))
finally:
    v.close()
check(numbers.get("flip") and numbers.get("hdr-flip") and
      numbers["flip"] != numbers["hdr-flip"],
      "HDR-FLIP's numbers are its own, not LDR-FLIP's")
sys.exit(1 if xwin.fails else 0)
