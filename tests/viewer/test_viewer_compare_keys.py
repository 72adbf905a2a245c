"""Results keyed to what is shown, with fast keys on the software renderer: with a reference
set (../shared/flip-reference's Cannon pair, 780x566, fitted into 960x600), T pressed six times
0.7 s apart (wipe -> difference -> absolute -> squared -> relative -> LDR-FLIP -> HDR-FLIP) in
a real window under Xvfb. The expected state of each mode comes from the screenshot hook
(--keys with k T presses: each key's frame waits for its results). Checked:
  1. every frame the window drew meanwhile (the layout hook's file, sampled every 20 ms)
     shows, for the mode the Compare section names, either that mode's numbers or
     "computing": never another computation's, never none (pending shown as pending);
  2. the last frame names HDR-FLIP, shows its numbers, and its picture (the error map) and
     colour bar equal the hook's HDR-FLIP frame (within 2 levels on 99.9 % of the pixels)."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

check = xwin.check
BIN = os.environ["HT_BIN"]
SHARED = os.path.join(os.environ.get("HT_SHARED", ""), "flip-reference")
REF, TEST = (os.path.join(SHARED, n) for n in ("Cannon.ref.exr", "Cannon.noise.exr"))
if not os.path.exists(REF):
    print("skipped (no ../shared): the flip-reference pair")
    sys.exit(xwin.SKIP)
tmp = tempfile.mkdtemp()
ARGS = [TEST, "--reference", REF, "--window", "960x600"]
MODES = ["wipe", "difference", "absolute", "squared", "relative", "flip", "hdr-flip"]


def state(lines):
    """(the mode named, the numbers' lines as one string) of a layout hook's frame."""
    mode = next((l.split()[1] for l in lines if l.startswith("compare_mode: ")), None)
    numbers = " | ".join(l[len("compare: "):].strip() for l in lines
                         if l.startswith("compare: "))
    return mode, numbers


def hook(presses):
    """The screenshot hook's frame after PRESSES T keys: (mode, numbers, pixels, viewport)."""
    lay, png = os.path.join(tmp, "layout"), os.path.join(tmp, "s%d.png" % presses)
    keys = " ".join(["t"] * presses) if presses else "f"
    r = subprocess.run([BIN, "view", *ARGS, "--keys", keys, "--screenshot", png],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, HT_TEST_LAYOUT=lay))
    check(r.returncode == 0, "hook, %d T: exit %d %s" % (presses, r.returncode, r.stderr[-200:]))
    lines = open(lay).read().splitlines()
    vp = next(tuple(int(t) for t in l.split()[1:]) for l in lines if l.startswith("viewport "))
    mode, numbers = state(lines)
    return mode, numbers, np.asarray(Image.open(png).convert("RGB")).astype(int), vp


want = {}
for k in range(1, 7):
    mode, numbers, px, vp = hook(k)
    check(mode == MODES[k] and (numbers != "" or MODES[k] == "wipe"),
          "hook: %d T: %s with its numbers (%s)" % (k, mode, numbers[:60]))
    want[mode] = numbers
last_px, last_vp = px, vp

v = xwin.Viewer(*ARGS)
seen, bad = [], []
try:
    for k in range(6):
        xwin.xdo("key", "--window", v.wid, "t")
        end = time.time() + 0.7
        while time.time() < end:
            try:
                lines = open(v.layout_path).read().splitlines()
            except OSError:
                continue
            mode, numbers = state(lines)
            seen.append((mode, numbers))
            # a mode with numbers shows its own or says "computing": never another's,
            # never none (a pending result not shown as pending)
            if mode in want and "computing" not in numbers and numbers != want[mode]:
                bad.append((mode, numbers[:80] or "(no numbers)"))
            time.sleep(0.02)
    end = time.time() + 60   # then until the last mode's numbers have come
    while time.time() < end:
        mode, numbers = state(open(v.layout_path).read().splitlines())
        if mode == "hdr-flip" and numbers == want["hdr-flip"]:
            break
        time.sleep(0.1)
    v.settle(1.0)
    mode, numbers = state(open(v.layout_path).read().splitlines())
    px = v.pixels()
finally:
    v.close()
check(not bad, "every frame drawn shows its own mode's numbers or 'computing' (%d frames "
      "sampled; modes seen %s): wrong ones %s" % (len(seen), sorted({m for m, _ in seen if m}),
                                                 bad[:3]))
# Whether a frame is drawn between a key and its result depends on the machine's speed (on
# an idle one the map's numbers come back before the next frame): the rule above covers those
# frames; how many were seen is said, not required.
print("note: 'computing' seen in %d of %d samples" % (sum("computing" in n for _, n in seen),
                                                      len(seen)))
check(mode == "hdr-flip" and numbers == want["hdr-flip"],
      "the last frame: HDR-FLIP with its numbers (%s: %s)" % (mode, numbers[:80]))
x, y, w, h = last_vp
lx = 0   # the colour bar left of the viewport belongs to the map too
a, b = px[y:y + h, lx:x + w], last_px[y:y + h, lx:x + w]
off = np.abs(a - b).max(axis=2) if a.shape == b.shape else np.full((1,), 255)
check(np.mean(off > 2) < 0.001, "the last frame's map and colour bar are HDR-FLIP's "
      "(%.3f%% of the pixels off by more than 2)" % (100 * np.mean(off > 2)))
sys.exit(1 if xwin.fails else 0)
