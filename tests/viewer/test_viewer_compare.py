"""Comparing with a reference in the window, driven by real input under Xvfb:
  1. --reference B with the wipe: the current image left of the divider, unchanged; the
     reference (brighter here) right of it;
  2. dragging the divider moves the split to the mouse;
  3. holding Z shows the reference over the whole picture, and letting go brings the wipe back;
  4. a reference of another size is refused with a message naming both sizes;
  5. the absolute-error view at 1:1 shows the CPU's absolute-error map (`hdrtone compare
     --metric mae -o`, the same colour map and range) within 2 levels;
  6. HDR-FLIP in the window, at 1:1 on a pair of ../shared/flip-reference, gives the mean
     NVIDIA's FLIP tool gives (within 0.003)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

BIN = os.environ["HT_BIN"]
check, fails, write_pfm = xwin.check, xwin.fails, xwin.write_pfm


def columns_brighter(px, plain, vp):
    """Per column of the viewport: whether the picture is brighter than the plain one."""
    x, y, w, h = vp
    a = px[y + h // 4:y + 3 * h // 4, x:x + w].astype(int).sum(axis=2).mean(axis=0)
    b = plain[y + h // 4:y + 3 * h // 4, x:x + w].astype(int).sum(axis=2).mean(axis=0)
    return a > b + 6


def split_at(brighter):
    """The first column from which the picture is brighter to the right."""
    idx = np.nonzero(brighter)[0]
    return idx.min() if len(idx) else None


def main():
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    yy, xx = np.mgrid[0:200, 0:300]
    ramp = np.exp2(xx / 30.0 - 8) * (1 + 0.5 * np.sin(yy / 7.0))
    a, b, c = (os.path.join(tmp, n) for n in ("a.pfm", "b.pfm", "c.pfm"))
    write_pfm(a, np.dstack([ramp] * 3).astype(np.float32))
    write_pfm(b, np.dstack([ramp * 4] * 3).astype(np.float32))
    write_pfm(c, np.ones((100, 100, 3), np.float32))
    common = ["--window", "960x600", "--msaa", "1"]
    v = xwin.Viewer(a, *common)
    try:
        v.key("f")
        plain = v.pixels()
    finally:
        v.close()
    v = xwin.Viewer(a, "--reference", b, *common)
    try:
        v.key("f")
        vp = v.layout()["viewport"]
        wipe = v.pixels()
        col = split_at(columns_brighter(wipe, plain, vp))
        check(col is not None and abs(col - vp[2] // 2) <= 3,
              "wipe: the reference from the middle (%s of %d)" % (col, vp[2]))
        left = wipe[vp[1]:vp[1] + vp[3], vp[0]:vp[0] + vp[2] // 2 - 4].astype(int)
        plain_left = plain[vp[1]:vp[1] + vp[3], vp[0]:vp[0] + vp[2] // 2 - 4].astype(int)
        check(np.abs(left - plain_left).max() <= 1 or
              np.mean(np.abs(left - plain_left) > 1) < 0.002,
              "wipe: the current image unchanged left of the divider")
        x0, y0 = vp[0] + vp[2] // 2, vp[1] + vp[3] // 2
        v.drag(x0, y0, vp[0] + vp[2] // 4, y0)
        col = split_at(columns_brighter(v.pixels(), plain, vp))
        check(col is not None and abs(col - vp[2] // 4) <= 4,
              "dragging the divider to a quarter moves the split there (%s)" % col)
        xwin.xdo("keydown", "--window", v.wid, "z")
        v.settle()
        held = columns_brighter(v.pixels(), plain, vp)
        xwin.xdo("keyup", "--window", v.wid, "z")
        v.settle()
        after = split_at(columns_brighter(v.pixels(), plain, vp))
        # Left of the divider too (but where both ends of the ramp clip to black or white).
        q = vp[2] // 4
        check(held[q:].mean() > 0.9 and held[:q].mean() > 0.5,
              "Z held: the reference on both sides (%.0f%% left of the divider, %.0f%% right)"
              % (100 * held[:q].mean(), 100 * held[q:].mean()))
        check(after is not None and abs(after - vp[2] // 4) <= 4,
              "Z released: the wipe again (%s)" % after)
    finally:
        v.close()
    shift_click_case(a, b)
    out = subprocess.run([BIN, "view", a, "--reference", c, "--screenshot",
                          os.path.join(tmp, "s.png"), "--frames", "3"],
                         capture_output=True, text=True, timeout=120).stdout
    check("reference c.pfm: the reference is 100x100, the image 300x200" in out,
          "a reference of another size: refused, both sizes said")
    map_case(tmp, a, b)
    flip_case(tmp)
    sys.exit(1 if fails else 0)


def shift_click_case(a, b):
    """Shift+click in the list marks the reference (tev); its close button unmarks it and the
    viewer lives on; Esc in a typed field leaves the viewer running."""
    v = xwin.Viewer(a, b, "--window", "960x1000", "--msaa", "1")
    try:
        v.key("f")
        lay = v.layout()
        vp = lay["viewport"]
        plain = v.pixels()   # no reference yet
        x, y, w, h = lay["image1"]
        v.shift_click(x + w // 2, y + h // 2)
        col = split_at(columns_brighter(v.pixels(), plain, vp))
        check(v.title().endswith("a.pfm") and col is not None and abs(col - vp[2] // 2) <= 3,
              "Shift+click marks the reference without selecting it (split at %s)" % col)
        x, y, w, h = v.layout()["close1"]
        v.click(x + w // 2, y + h // 2)
        alive = v.proc.poll() is None
        col = split_at(columns_brighter(v.pixels(), plain, vp)) if alive else 0
        check(alive and col is None, "closing the reference: no reference, the viewer lives")
        x, y, w, h = v.layout()["slider_Dr"]
        v.click(x + w + 40, y + h // 2)
        v.key("Escape")
        check(v.proc.poll() is None, "Esc in a typed field does not quit")
    finally:
        v.close()


def shot_layout(tmp, *args):
    """--screenshot with the layout hook: the PNG, the hook's lines and the layout file."""
    png, lay = os.path.join(tmp, "shot.png"), os.path.join(tmp, "layout")
    env = dict(os.environ, HT_TEST_LAYOUT=lay)
    out = subprocess.run([BIN, "view", *args, "--screenshot", png, "--frames", "16"],
                         capture_output=True, text=True, timeout=300, env=env).stdout
    info = {l.split()[0]: l.split()[1:] for l in out.splitlines() if l.strip()}
    from PIL import Image
    return np.asarray(Image.open(png).convert("RGB")).astype(int), info, open(lay).read()


def map_case(tmp, a, b):
    want = os.path.join(tmp, "mae.png")
    subprocess.run([BIN, "compare", b, a, "--metric", "mae", "-o", want], check=True,
                   capture_output=True)
    # t t: wipe -> difference -> absolute error; 1:1, the whole 300x200 image in view.
    px, info, _ = shot_layout(tmp, a, "--reference", b, "--window", "960x600", "--keys",
                              "ctrl+0 t t")
    ix, iy = map(int, info["screenshot"][5].split(","))
    from PIL import Image
    ref = np.asarray(Image.open(want).convert("RGB")).astype(int)
    shown = px[iy:iy + 200, ix:ix + 300]
    off = np.abs(shown - ref).max(axis=2)
    check(shown.shape == ref.shape and np.mean(off > 2) < 0.01,
          "absolute error view = compare --metric mae's map (%.2f%% of pixels off by > 2)"
          % (100 * np.mean(off > 2)))


def flip_case(tmp):
    shared = os.environ.get("HT_SHARED", "")
    ref = os.path.join(shared, "flip-reference", "Cannon.ref.exr")
    test = os.path.join(shared, "flip-reference", "Cannon.noise.exr")
    results = os.path.join(shared, "flip-reference", "flip", "RESULTS.tsv")
    if not all(os.path.exists(p) for p in (ref, test, results)):
        print("skipped (no ../shared): HDR-FLIP against NVIDIA's tool")
        return
    row = next(l.split("\t") for l in open(results) if "Cannon.noise.exr" in l)
    want = float(row[7])
    # t x6: wipe -> ... -> HDR-FLIP; 1:1 with the 780x566 image whole in the window.
    _, _, lay = shot_layout(tmp, test, "--reference", ref, "--window", "1200x900", "--keys",
                            "ctrl+0 t t t t t t")
    line = next((l for l in lay.splitlines() if l.startswith("compare: FLIP mean")), "")
    got = float(line.split()[3]) if line else float("nan")
    check(abs(got - want) <= 0.003, "HDR-FLIP in the window: mean %.5f, NVIDIA's tool %.6f"
          % (got, want))


main()
