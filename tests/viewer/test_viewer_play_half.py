"""A sequence of half-float EXR frames plays as bench --playback does: decoded as half floats
alone straight into the upload ring (the hook's "playback:" line counts the ring's uploads),
and what reads the shown frame on the CPU reads its half floats correctly. In a window under
Xvfb, while playing, the inspector's values of the pixel under the cursor are `hdrtone stats
--pixel` of the frame the same window frame shows; paused, the brightest pixel and the peaks
(X) are `hdrtone stats`' of that frame, and its export (S) is `hdrtone export --backend
gpu`'s picture of it, pixel for pixel (the viewer's export runs on the GPU). Every frame
differs (random pixels), so a value from another frame, the floats of no frame or garbage
fails."""
import json
import os
import re
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
FRAMES, W, H = 6, 160, 100
tmp = tempfile.mkdtemp()
os.chdir(tmp)   # S exports ./shot.NNNN_tonemapped.png
rng = np.random.default_rng(32)
for f in range(FRAMES):
    xwin.write_pfm("src.pfm", rng.uniform(0.01, 40.0, (H, W, 3)).astype(np.float32))
    r = subprocess.run([os.environ["HT_MAKE_BENCH_EXR"], "src.pfm", "shot.%04d.exr" % f,
                        str(W), str(H), "piz"], capture_output=True, text=True)
    if r.returncode:
        print("skipped: make_bench_exr:", r.stderr)
        sys.exit(xwin.SKIP)
SEQ = "shot.%04d.exr"


def stats(frame, *args):
    r = subprocess.run([BIN, "stats", SEQ % frame, "--json", *args], capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)


# Paused after 8 window frames (every frame decoded into the ring, the first ones too):
# X marks the brightest pixel and the peaks, S exports the shown frame.
keys = " ".join(["ctrl+0"] * 8 + ["space", "x", "s", "ctrl+0"])   # s: a frame after it
r = subprocess.run([BIN, SEQ, "--adapt", "none", "--msaa", "1", "--no-panels", "--window",
                    "800x600", "--screenshot", "paused.png", "--keys", keys],
                   capture_output=True, text=True, timeout=120)
check(r.returncode == 0, "the paused run: %s" % r.stderr.strip())
out = r.stdout
m = re.search(r"^playback: (\d+) uploads, (\d+) from the upload ring$", out, re.M)
check(m is not None and int(m.group(2)) >= int(m.group(1)) >= 1,
      "the frames are uploaded from the ring: %s" % (m.group(0) if m else out))
m = re.search(r"^status: frame (\d+) \[\d+/%d\]  paused" % FRAMES, out, re.M)
check(m is not None, "paused: %s" % re.findall("^status: frame.*", out, re.M))
frame = int(m.group(1)) if m else 0

want = stats(frame, "--peaks", "8")
b = want["brightest"]
m = re.search(r"^status: brightest (\d+),(\d+) .* Y ([0-9.e+-]+)", out, re.M)
check(m is not None and (int(m.group(1)), int(m.group(2))) == (b["x"], b["y"]) and
      abs(float(m.group(3)) - b["luminance"]) <= 1e-3 * b["luminance"],
      "frame %d's brightest pixel %s is stats' %d,%d Y %g" %
      (frame, m.group(0) if m else None, b["x"], b["y"], b["luminance"]))
peaks = [tuple(map(int, p)) for p in re.findall(r"^peak: \d+ (\d+),(\d+)$", out, re.M)]
check(peaks == [(p["x"], p["y"]) for p in want["peaks"]] and len(peaks) == 8,
      "frame %d's peaks %s are stats --peaks 8's" % (frame, peaks))

shot = "shot.%04d_tonemapped.png" % frame
subprocess.run([BIN, "export", SEQ % frame, "--backend", "gpu", "-o", "want.png"], check=True,
               capture_output=True)
got = np.asarray(Image.open(shot)) if os.path.exists(shot) else None
exp = np.asarray(Image.open("want.png"))
check(got is not None and got.shape == exp.shape and (got == exp).all(),
      "S exported %s, hdrtone export's picture of frame %d" % (shot, frame))

# Playing at 4 frames/s, the cursor over the picture: the inspector's values and the frame
# shown, from one write of the layout hook (one window frame).
v = xwin.Viewer(SEQ, "--fps", "4", "--adapt", "none", "--window", "960x600", "--msaa", "1")
seen = set()
try:
    vp = v.layout()["viewport"]
    xwin.xdo("mousemove", "--window", v.wid, vp[0] + vp[2] // 2 + 13, vp[1] + vp[3] // 2 - 7)
    v.settle()
    end = time.time() + 20
    while time.time() < end and len(seen) < 3:
        with open(v.layout_path) as f:
            text = f.read()
        fr = re.search(r"^status: frame (\d+) \[\d+/\d+\]  playing", text, re.M)
        px = re.search(r"^pixel: pixel (\d+), (\d+)\npixel: R (\S+)  G (\S+)  B (\S+)", text,
                       re.M)
        if fr and px and int(fr.group(1)) not in seen:
            f, x, y = int(fr.group(1)), int(px.group(1)), int(px.group(2))
            seen.add(f)
            rgb = [float(t) for t in px.group(3, 4, 5)]
            want = stats(f, "--pixel", "%d,%d" % (x, y))["pixel"]["rgba"][:3]
            check(["%.4g" % t for t in rgb] == ["%.4g" % t for t in want],
                  "playing, frame %d: the inspector's pixel %d,%d %s = stats --pixel %s"
                  % (f, x, y, rgb, want))
        time.sleep(0.1)
finally:
    v.close()
check(len(seen) >= 2, "the inspector read %d frames while playing (%s)" % (len(seen), seen))
sys.exit(1 if xwin.fails else 0)
