"""The viewer as an application, driven as a user drives it: real windows under Xvfb, real
clicks and keys (xdotool), the window's pixels (xwd, or the --screenshot hook):
  1. at 640x400, 960x600 and 1920x1080 with every docked panel open, the picture region
     equals the export of the image at that zoom (fitted: within resampling error; 1:1: within
     1 level), the dock never covers it and it keeps at least half the window's width;
  2. clicking the image list selects an image; Up steps back; Ctrl+O with a typed path
     opens a file, Ctrl+W closes it;
  3. dragging the Dr slider changes the picture the way the key D does, and typing D D's
     value into its field gives D D's picture;
  4. a fitted image refits when the window changes; --ui-scale 2 doubles the text's height;
  5. the action table is the only place that binds keys (no GLFW key code elsewhere in the
     viewer but the key names and the GUI's text editing)."""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

BIN = os.environ["HT_BIN"]
SRC = os.environ["HT_SOURCE_DIR"]
DEFAULT = os.path.join(SRC, "assets", "default.exr")
check, fails, write_pfm = xwin.check, xwin.fails, xwin.write_pfm


def shot(tmp, *args):
    """--screenshot: the PNG as an array and the hook's lines as a dict."""
    out = os.path.join(tmp, "shot.png")
    r = subprocess.run([BIN, "view", *args, "--screenshot", out, "--frames", "3"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    info = {}
    for line in r.stdout.splitlines():
        info.setdefault(line.split()[0], line.split()[1:])
    return np.asarray(Image.open(out).convert("RGB")).astype(int), info


def layout_case(tmp, export, size):
    for keys, name in ((None, "fitted"), ("ctrl+0", "1:1")):
        args = [DEFAULT, "--window", size, "--msaa", "1"] + (["--keys", keys] if keys else [])
        px, info = shot(tmp, *args)
        fw, fh = map(int, info["screenshot"][1].split("x"))
        vx, vy = map(int, info["viewport"][0].split(","))
        vw, vh = map(int, info["viewport"][1].split("x"))
        ix, iy = map(int, info["screenshot"][5].split(","))
        zoom = float(info["screenshot"][7])
        check(vx + vw <= fw and vy + vh <= fh and vw * 2 >= fw,
              "%s %s: viewport %dx%d+%d+%d in %dx%d" % (size, name, vw, vh, vx, vy, fw, fh))
        ew, eh = export.size
        dw, dh = round(ew * zoom), round(eh * zoom)
        # The part of the picture inside the viewport.
        x0, y0 = max(ix, vx), max(iy, vy)
        x1, y1 = min(ix + dw, vx + vw), min(iy + dh, vy + vh)
        shown = px[y0:y1, x0:x1]
        ref = np.asarray(export.resize((dw, dh), Image.BOX).convert("RGB")).astype(int)
        ref = ref[y0 - iy:y1 - iy, x0 - ix:x1 - ix]
        err = np.abs(shown - ref)
        if zoom == 1:
            check(err.max() <= 1, "%s 1:1: picture = export (max diff %d over %dx%d)"
                  % (size, err.max(), x1 - x0, y1 - y0))
        else:
            # Tone mapping before or after the resampling differs a little at edges.
            check(err.mean() < 4 and np.percentile(err, 99) < 40,
                  "%s fitted (zoom %.3f): picture = export resized (mean diff %.2f, 99%% %d)"
                  % (size, zoom, err.mean(), np.percentile(err, 99)))


def picture_mean(px, vp):
    x, y, w, h = vp
    return px[y:y + h, x:x + w].mean()


def mouse_cases(tmp):
    a, b = os.path.join(tmp, "a.pfm"), os.path.join(tmp, "b.pfm")
    yy, xx = np.mgrid[0:160, 0:240]
    write_pfm(a, np.dstack([np.exp2(xx / 20.0 - 4)] * 3).astype(np.float32))
    write_pfm(b, np.dstack([np.exp2(yy / 10.0 - 6), 0.5 * np.ones_like(xx),
                            np.ones_like(xx)]).astype(np.float32))
    # Tall enough that the dock shows the Settings section's sliders without scrolling.
    big = ["--window", "960x1000", "--msaa", "1"]
    v = xwin.Viewer(a, b, *big)
    try:
        check(v.title().endswith("a.pfm"), "first image shown: title '%s'" % v.title())
        x, y, w, h = v.layout()["image1"]
        v.click(x + w // 2, y + h // 2)
        check(v.title().endswith("b.pfm"), "clicking the list's second entry shows it: '%s'"
              % v.title())
        v.key("Up")
        check(v.title().endswith("a.pfm"), "Up: the previous image again")
        lay = v.layout()
        vp = (0, 30, 600, 900)  # inside the picture (left of the dock, below the menu)
        p0 = picture_mean(v.pixels(), vp)
        x, y, w, h = lay["slider_Dr"]
        lo, hi = np.log10(2), 5   # the slider's log10 range (panels.c), Dr at 100
        knob = x + w * (2 - lo) / (hi - lo)
        v.drag(knob, y + h // 2, knob + w * 0.2, y + h // 2)
        p_drag = picture_mean(v.pixels(), vp)
        c = os.path.join(tmp, "c.pfm")
        write_pfm(c, np.ones((40, 60, 3), np.float32))
        v.key("ctrl+o")
        xwin.xdo("type", "--window", v.wid, c)
        v.key("Return")
        check(v.title().endswith("c.pfm"), "Ctrl+O, a typed path and Enter open it: '%s'"
              % v.title())
        v.key("ctrl+w")
        check(not v.title().endswith("c.pfm"), "Ctrl+W closes it: '%s'" % v.title())
    finally:
        v.close()
    v = xwin.Viewer(a, *big)
    try:
        v.key("d", "d")
        p_key = picture_mean(v.pixels(), vp)
        keyed = v.pixels()
    finally:
        v.close()
    check(abs(p_drag - p0) > 1 and np.sign(p_drag - p0) == np.sign(p_key - p0),
          "dragging Dr up moves the picture as D does (%.2f -> drag %.2f, D D %.2f)"
          % (p0, p_drag, p_key))
    v = xwin.Viewer(a, *big)
    try:
        x, y, w, h = v.layout()["slider_Dr"]
        v.click(x + w + 40, y + h // 2)   # the typed field right of the slider
        v.key("ctrl+a")
        xwin.xdo("type", "--window", v.wid, "200")
        v.key("Return")
        typed = v.pixels()
    finally:
        v.close()
    region = (slice(30, 900), slice(0, 600))
    check(np.abs(typed[region].astype(int) - keyed[region].astype(int)).max() <= 1,
          "Dr typed as 200 (100 * 2: two D presses of half a stop) shows D D's picture")


def picture_box(px, vp):
    """The box (x0, y0, x1, y1) of the pixels inside VP coloured as VP's centre."""
    x, y, w, h = vp
    region = px[y:y + h, x:x + w].astype(int)
    centre = region[h // 2, w // 2]
    same = np.abs(region - centre).max(axis=2) <= 2
    ys, xs = np.nonzero(same)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def refit_case(tmp):
    d = os.path.join(tmp, "d.pfm")
    write_pfm(d, np.full((300, 500, 3), 0.5, np.float32))
    v = xwin.Viewer(d, "--window", "960x600", "--msaa", "1")
    try:
        v.key("f")
        for size in ((1400, 900), (700, 500)):
            xwin.xdo("windowsize", v.wid, *size)
            v.settle(1.5)
            vp = v.layout()["viewport"]
            x0, y0, x1, y1 = picture_box(v.pixels(), vp)
            w, h = x1 - x0, y1 - y0
            check(abs(w - vp[2]) <= 2 or abs(h - vp[3]) <= 2,
                  "fitted at %dx%d: the picture (%dx%d) fills the viewport (%dx%d)"
                  % (size + (w, h, vp[2], vp[3])))
    finally:
        v.close()


def text_height(px, rows):
    """Height of the ink of the status bar's text (bright pixels) in rows ROWS."""
    band = px[rows[0]:rows[1], :400].max(axis=2) > 170
    ys = np.nonzero(band.any(axis=1))[0]
    return ys.max() - ys.min() + 1 if len(ys) else 0


def scale_case(tmp):
    heights = {}
    for s in ("1", "2"):
        px, info = shot(tmp, DEFAULT, "--window", "1600x900", "--ui-scale", s)
        vy = int(info["viewport"][0].split(",")[1])
        vh = int(info["viewport"][1].split("x")[1])
        heights[s] = (float(info["viewport"][3]), text_height(px, (vy + vh, px.shape[0])))
    (t1, h1), (t2, h2) = heights["1"], heights["2"]
    check(abs(t2 / t1 - 2) < 0.01 and 1.7 < h2 / max(h1, 1) < 2.3,
          "--ui-scale 2: text %.1f -> %.1f px, status ink %d -> %d px" % (t1, t2, h1, h2))


def source_case():
    allowed = {"actions.c", "keynames.c", "ui.cpp", "input.c"}
    for path in glob.glob(os.path.join(SRC, "src", "viewer", "*.c*")):
        name = os.path.basename(path)
        text = open(path).read()
        if name not in allowed:
            check(not re.search(r"GLFW_KEY_", text), "%s binds no key itself" % name)
    inp = open(os.path.join(SRC, "src", "viewer", "input.c")).read()
    keys = set(re.findall(r"GLFW_KEY_\w+", inp))
    check(keys <= {"GLFW_KEY_ESCAPE", "GLFW_KEY_F1", "GLFW_KEY_BACKSPACE"} and
          "action_key(" in inp,
          "input.c dispatches keys through the action table (text editing aside: %s)"
          % sorted(keys))


def main():
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    export = os.path.join(tmp, "export.png")
    if subprocess.run([BIN, "export", DEFAULT, "-o", export]).returncode:
        print("skipped: export failed (no GL?)")
        sys.exit(xwin.SKIP)
    img = Image.open(export)
    for size in ("640x400", "960x600", "1920x1080"):
        layout_case(tmp, img, size)
    mouse_cases(tmp)
    refit_case(tmp)
    scale_case(tmp)
    source_case()
    sys.exit(1 if fails else 0)


main()
