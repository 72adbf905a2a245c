"""The analysis shown belongs to what is shown, with fast keys on the software renderer: in a
real window under Xvfb, B and Shift+B (histogram bins x2, /2) pressed alternately and fast,
then V (the analysis reads the view) and F. The frame record (the analysis read back a frame
or so after its frame) carries the key of the frame it was read from; the panels take it only
while that key is what is shown (renderer_result), else the analysis is pending. Checked in
every frame the window drew meanwhile (the layout hook's file, sampled every 10 ms): the
analysis it shows ("analysis: bins N counted M") has the bins the status names for the frame
("bins N" of the status line), or says "pending", never the bins of another frame; and the
last frame shows its analysis (not pending for ever). Without the key the frame after each
press showed the analysis of the frame before (the bins before the press)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
check = xwin.check
DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets",
                       "default.exr")


def state(lines):
    """(the bins the status names, the analysis note) of a layout hook's frame."""
    bins = next((int(m.group(1)) for l in lines if l.startswith("status: ")
                 for m in [re.search(r"\bbins (\d+)", l)] if m), None)
    analysis = next((l[len("analysis: "):].strip() for l in lines
                     if l.startswith("analysis: ")), None)
    return bins, analysis


def frame(v):
    try:
        return state(open(v.layout_path).read().splitlines())
    except OSError:
        return None, None


v = xwin.Viewer(DEFAULT, "--window", "800x500")
seen, bad = [], []
try:
    bins0, analysis0 = frame(v)
    check(bins0 and analysis0 and analysis0.startswith("bins %d " % bins0),
          "the first frame's analysis is of its settings (%s; status bins %s)"
          % (analysis0, bins0))
    for key in ["b", "shift+b"] * 4 + ["v", "b", "v", "shift+b"]:
        xwin.xdo("key", "--window", v.wid, key)
        end = time.time() + 0.35
        while time.time() < end:
            bins, analysis = frame(v)
            if bins is not None and analysis is not None:
                seen.append((bins, analysis))
                if analysis != "pending" and not analysis.startswith("bins %d " % bins):
                    bad.append((bins, analysis))
            time.sleep(0.01)
    end = time.time() + 30   # then until the last frame's analysis has come
    while time.time() < end:
        bins, analysis = frame(v)
        if analysis and analysis != "pending":
            break
        time.sleep(0.05)
    v.settle(0.5)
    bins, analysis = frame(v)
finally:
    v.close()
check(len(seen) > 20, "frames sampled while the keys came: %d" % len(seen))
check(not bad, "every frame drawn shows the analysis of its own settings or 'pending' "
      "(%d samples): wrong ones %s" % (len(seen), bad[:3]))
print("note: 'pending' seen in %d of %d samples" % (sum(a == "pending" for _, a in seen),
                                                    len(seen)))
check(bins == bins0 and analysis and analysis.startswith("bins %d " % bins),
      "the last frame shows its own analysis (status bins %s: %s)" % (bins, analysis))
sys.exit(1 if xwin.fails else 0)
