#!/usr/bin/env python3
"""bench's viewer frame with GUI (bench_gui.h, viewer_bench.c) on llvmpipe here: its rows are in
--json (in the table of the viewer's samples, the frame against its floor), and the frame it
times is the viewer's with the panels drawn: the menu bar, the status bar and the dock (its
text and histogram) over the rows and columns the frame without them (Ctrl+H) gives the
picture or the background, and the picture whole, at 1:1, in both."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np

check = htpy.check
tmp = tempfile.mkdtemp()
W, H = 800, 500
env = dict(os.environ, HT_BENCH_GUI_PNG=os.path.join(tmp, "shot"))
r = subprocess.run([os.environ["HT_BIN"], "bench", "--synthetic", "96x40", "--runs", "3",
                    "--msaa", "1", "--window", f"{W}x{H}", "--json"], capture_output=True,
                   text=True, timeout=240, env=env)
if r.returncode != 0 and "no GPU" in r.stderr:
    print("skipped: no GPU")
    sys.exit(77)
check(r.returncode == 0 and r.stderr == "", f"bench: exit {r.returncode}: {r.stderr[-500:]}")
d = json.loads(r.stdout)
check(len(d["results"]) == 1, "one table with --msaa 1")
rows = {p["name"]: p for p in d["results"][-1]["passes"]}
for what in ("viewer frame with GUI", "GUI frame: CPU", "GUI frame: until done",
             "GUI frame: picture unchanged", "viewer frame, panels hidden",
             "GUI: panels built (CPU)", "GUI: ui_render (CPU)", "GUI: ui_render (GPU)",
             "present (blit)", "clear (around the picture)"):
    name = f"{what}, {W}x{H}"
    check(name in rows and rows[name]["median_us"] > 0, f"row {name}: {rows.get(name)}")
frame, plain = rows.get(f"viewer frame with GUI, {W}x{H}"), rows.get(
    f"viewer frame, panels hidden, {W}x{H}")
check(frame and frame["vs"] == "floor" and frame["ratio"] > 0, f"its floor: {frame}")
# The picture without the panels fills the window: its floor's bytes are more.
check(frame and plain and plain["bytes"] > frame["bytes"] > 0, f"{frame} {plain}")

gui = htpy.png_codes(os.path.join(tmp, f"shot-{W}x{H}.png"))
bare = htpy.png_codes(os.path.join(tmp, f"shot-{W}x{H}-plain.png"))
check(gui.shape == (H, W, 3) and bare.shape == (H, W, 3), f"{gui.shape} {bare.shape}")


def differ(a, b):
    """The share of pixels that differ by more than a rounding."""
    return float(np.mean(np.abs(a - b).max(axis=2) > 8))


def picture_box(img):
    """The bounding box (x, y, w, h) of the pixels that are not black."""
    ys, xs = np.nonzero(img.sum(axis=2) > 0)
    return (int(xs.min()), int(ys.min()), int(xs.ptp()) + 1, int(ys.ptp()) + 1) if len(xs) \
        else None


check(differ(gui[:18], bare[:18]) > 0.5, "the menu bar is drawn over the top rows")
check(differ(gui[-18:], bare[-18:]) > 0.5, "the status bar is drawn over the bottom rows")
dock = gui[40:H - 40, W - 280:W - 20]
check(differ(dock, bare[40:H - 40, W - 280:W - 20]) > 0.5, "the dock is drawn at the right")
check(len(np.unique(dock.reshape(-1, 3), axis=0)) > 20, "the dock has text and a histogram")
box = picture_box(bare)
check(box and box[2:] == (96, 40), f"the picture alone, at 1:1: {box}")
gbox = picture_box(gui[40:H - 40, :W - 320])
check(gbox and gbox[2:] == (96, 40), f"the picture beside the panels, at 1:1: {gbox}")
htpy.finish("bench viewer frame with GUI")
