"""Layouts (--layout, J, sessions) in a window under Xvfb, at 1:1 on four different 300x200
images (a warm ramp, a red ramp mirrored, a bright spot, a grey ramp upside down):
  1. side by side: two tiles, and each tile's picture (cropped at 1:1) equals `hdrtone
     export` of its own file within 1 level (each tile has its own whole-image analysis);
  2. the grid of the four: four tiles, each equal to its file's export within 1 level;
  3. with a reference, each tile's FLIP mean and PSNR (drawn on it, and in the Compare
     section) are those `hdrtone compare --backend cpu REF FILE` prints for that file;
  4. J from the single layout gives side by side;
  5. a saved session (Ctrl+Shift+S) holds the layout, and reopened gives the same tiles and
     the same screenshot, pixel for pixel.
  6. in a real window (the tiles' files decoded on a worker): both tiles show their pictures,
     and a drag in the right-hand tile pans both pictures by the drag;
  7. the human-vision stage (--veil --color-loss) on every tile of the grid, and the OCIO view
     on both tiles of a Rec. 709 file and a Rec. 2020 one (a Radiance file with PRIMARIES=,
     so the tiles' input spaces differ): each tile equals its file's export with the same
     options within 1 level;
  8. zoomed in far side by side, the other tile draws its own file's values on its pixels
     (the hook's tile_pixel_values: the middle pixel's values equal `hdrtone stats --pixel`
     of that file, and the screenshot has text in that pixel's cell).
Screenshots at 640x400 and 1920x1080 are written to $HT_SHOTS when it is set."""
import json
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

check, write_pfm = xwin.check, xwin.write_pfm
BIN = os.environ["HT_BIN"]
tmp = tempfile.mkdtemp()
os.chdir(tmp)

yy, xx = np.mgrid[0:200, 0:300]
ramp = np.exp2(xx / 30.0 - 8) * (1 + 0.5 * np.sin(yy / 7.0))
spot = np.exp(-((xx - 150) ** 2 + (yy - 100) ** 2) / 800.0) * 100 + 0.01
IMAGES = {"a.pfm": np.dstack([ramp, ramp * 0.5, ramp * 0.2]),
          "b.pfm": np.dstack([ramp * 4, ramp, ramp])[:, ::-1],
          "c.pfm": np.dstack([spot] * 3),
          "d.pfm": np.dstack([ramp[::-1]] * 3)}
for name, rgb in IMAGES.items():
    write_pfm(name, np.ascontiguousarray(rgb).astype(np.float32))
    subprocess.run([BIN, "export", name, "-o", name + ".png"], check=True)
EXPORT = {n: np.asarray(Image.open(n + ".png").convert("RGB")).astype(int) for n in IMAGES}


def view(*args, window="960x600", shot="s.png"):
    """The screenshot run: (stdout lines, the layout hook's lines, the screenshot's pixels)."""
    r = subprocess.run([BIN, "view", "--window", window, "--msaa", "1", "--screenshot", shot,
                        *args], capture_output=True, text=True, timeout=180,
                       env=dict(os.environ, HT_TEST_LAYOUT=os.path.join(tmp, "layout")))
    check(r.returncode == 0, "view %s: exit %d %s" % (" ".join(args), r.returncode,
                                                      r.stderr.strip()[-300:]))
    px = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    return r.stdout.splitlines(), open("layout").read().splitlines(), px


def tiles(notes):
    """The tiles the layout hook lists: [(x, y, w, h, name)]."""
    names = dict(l.split()[1:3] for l in notes if l.startswith("tile_name: "))
    out = []
    for line in notes:
        f = line.split()
        if re.fullmatch(r"tile\d+", f[0]):
            out.append((int(f[1]), int(f[2]), int(f[3]), int(f[4]), names.get(f[0][4:])))
    return out


def image_offset(out):
    """Where the shown image's top-left pixel is, relative to the viewport, and the zoom."""
    shot = next(l for l in out if l.startswith("screenshot "))
    vp = next(l for l in out if l.startswith("viewport "))
    m = re.search(r"at (-?\d+),(-?\d+) zoom (\S+)", shot)
    v = re.match(r"viewport (-?\d+),(-?\d+)", vp)
    return (int(m.group(1)) - int(v.group(1)), int(m.group(2)) - int(v.group(2)),
            float(m.group(3)))


def check_tiles_equal_export(what, out, notes, px, want, export=None):
    export = export or EXPORT
    ts = tiles(notes)
    check([t[4] for t in ts] == want, "%s: the tiles show %s: %s" % (what, want, ts))
    dx, dy, zoom = image_offset(out)
    check(zoom == 1, "%s: at 1:1 (zoom %g)" % (what, zoom))
    for x, y, w, h, name in ts:
        crop = px[y + dy:y + dy + 200, x + dx:x + dx + 300]
        err = np.abs(crop - export[name]).max() if crop.shape == export[name].shape else 999
        check(err <= 1, "%s: the tile of %s equals its export (max diff %s)" % (what, name, err))


# 1. Side by side: the shown image and the next one.
out, notes, px = view("a.pfm", "b.pfm", "--layout", "side-by-side")
check_tiles_equal_export("side by side", out, notes, px, ["a.pfm", "b.pfm"])

# 2. The grid of four.
out, notes, grid_px = view("a.pfm", "b.pfm", "c.pfm", "d.pfm", "--layout", "grid")
check_tiles_equal_export("grid", out, notes, grid_px, ["a.pfm", "b.pfm", "c.pfm", "d.pfm"])

# 3. With a reference: each tile's whole-image numbers are compare's.
out, notes, px = view("a.pfm", "b.pfm", "c.pfm", "d.pfm", "--reference", "b.pfm",
                      "--layout", "grid")
texts = [l[len("tile_text: "):] for l in notes if l.startswith("tile_text: ")]
whole = " ".join(l[len("whole: "):] for l in notes if l.startswith("whole: "))
for name in ("a.pfm", "c.pfm", "d.pfm"):
    r = subprocess.run([BIN, "compare", "--backend", "cpu", "b.pfm", name], capture_output=True,
                       text=True, check=True).stdout
    mean = float(re.search(r"\) mean (\S+)", r).group(1))
    psnr = float(re.search(r"PSNR (\S+) dB", r).group(1))
    want = "FLIP %.4f" % mean
    line = [t for t in texts if " %s |" % name in t]
    check(line and want in line[0] and "PSNR %.2f dB" % psnr in line[0],
          "the tile of %s shows compare's %s, PSNR %.2f: %s" % (name, want, psnr, line))
    check(re.search(re.escape(name) + r":\s+" + want, whole),
          "the Compare section lists %s's %s: %s" % (name, want, whole))
check(any("b.pfm  (reference) | " in t for t in texts), "the reference's tile says so: %s" % texts)

# 4. J: single -> side by side.
out, notes, px = view("a.pfm", "c.pfm", "--keys", "j")
check([t[4] for t in tiles(notes)] == ["a.pfm", "c.pfm"],
      "J turns the single layout into side by side: %s" % tiles(notes))

# 5. A saved session holds the layout and gives the same window again.
out, notes, px = view("a.pfm", "b.pfm", "c.pfm", "d.pfm", "--layout", "grid", "--keys",
                      "ctrl+shift+s")
saved = json.load(open("hdrtone-session.json"))
pairs = dict(zip(saved["settings"][::2], saved["settings"][1::2]))
check(pairs.get("--layout") == "grid", "the session holds the layout: %s" % pairs.get("--layout"))
out, notes2, px2 = view("--session", "hdrtone-session.json", shot="s2.png")
check(tiles(notes2) == tiles(notes),
      "the session reopens the grid: %s" % tiles(notes2))
check(px2.shape == grid_px.shape and np.array_equal(px2, grid_px),
      "the reopened session's screenshot equals the grid's (%d pixels differ)"
      % (np.sum(np.any(px2 != grid_px, axis=2)) if px2.shape == grid_px.shape else -1))



def left_edges(px, ts):
    """Each tile's first column (from its left) whose middle rows are not black."""
    out = []
    for x, y, w, h, _ in ts:
        band = px[y + h // 2 - 20:y + h // 2 + 20, x:x + w].sum(axis=2).max(axis=0)
        lit = np.nonzero(band > 30)[0]
        out.append(int(lit[0]) if len(lit) else None)
    return out


# 6. A real window: tiles decoded off the window's thread, pan locked across the tiles.
v = xwin.Viewer("a.pfm", "c.pfm", "--layout", "side-by-side", "--window", "960x600")
try:
    ts = tiles(open(v.layout_path).read().splitlines())
    before = left_edges(v.pixels(), ts)
    x, y, w, h, _ = ts[1]
    v.drag(x + w // 2, y + h // 2, x + w // 2 + 60, y + h // 2)
    after = left_edges(v.pixels(), ts)
finally:
    v.close()
check(len(ts) == 2 and None not in before,
      "a real window shows both tiles' pictures: left edges %s" % before)
check(None not in after and all(abs(a - b - 60) <= 2 for a, b in zip(after, before)),
      "a drag of 60 px in the right tile moves both pictures by 60: %s -> %s" % (before, after))

def write_rgbe(path, rgb, primaries):
    """RGB (H x W x 3) as a flat Radiance file with PRIMARIES= (its colour space)."""
    m = rgb.max(axis=2)
    mant, ex = np.frexp(m)
    scale = np.where(m > 1e-32, mant * 256.0 / np.maximum(m, 1e-32), 0)
    px = np.zeros(rgb.shape[:2] + (4,), np.uint8)
    px[..., :3] = np.clip(rgb * scale[..., None], 0, 255).astype(np.uint8)
    px[..., 3] = np.where(m > 1e-32, ex + 128, 0)
    head = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nPRIMARIES=%s\n\n-Y %d +X %d\n" % (
        primaries, rgb.shape[0], rgb.shape[1])
    with open(path, "wb") as f:
        f.write(head.encode() + px.tobytes())


# 7. The human-vision stage and the OCIO view on every tile, each as its file's export.
write_rgbe("e.hdr", IMAGES["b.pfm"], "0.708 0.292 0.170 0.797 0.131 0.046 0.3127 0.3290")
for files, opts in ((["a.pfm", "b.pfm", "c.pfm", "d.pfm"], ["--veil", "--color-loss"]),
                    (["a.pfm", "e.hdr"], ["--view", "ocio", "--ocio-view", "Un-tone-mapped"])):
    exported = {}
    for name in files:
        subprocess.run([BIN, "export", name, "-o", name + ".opt.png", *opts], check=True)
        exported[name] = np.asarray(Image.open(name + ".opt.png").convert("RGB")).astype(int)
    out, notes, px = view(*files, "--layout", "grid", *opts)
    check_tiles_equal_export("grid %s" % " ".join(opts), out, notes, px, files, exported)

# 8. Values on the pixels of the other tile too, zoomed in far (64 screen pixels a pixel).
out, notes, px = view("a.pfm", "c.pfm", "--layout", "side-by-side", "--keys",
                      "0 equal equal equal equal equal equal", window="1280x800")
for hook, name in (("pixel_values: ", "a.pfm"), ("tile_pixel_values: ", "c.pfm")):
    got = [l[len(hook):].split() for l in notes if l.startswith(hook)]
    ok = len(got) == 1 and int(got[0][0]) > 0
    if ok:
        x, y = int(got[0][1]), int(got[0][2])
        r = subprocess.run([BIN, "stats", name, "--pixel", "%d,%d" % (x, y), "--json"],
                           capture_output=True, text=True, check=True)
        want = json.loads(r.stdout)["pixel"]["rgba"][:3]
        ok = np.allclose([float(t) for t in got[0][5:8]], want, rtol=1e-6)
        sx, sy = int(got[0][3]), int(got[0][4])   # the cell's centre: text differs from it
        cell = px[sy - 28:sy + 28, sx - 28:sx + 28]
        ink = int((np.abs(cell - np.median(cell, axis=(0, 1))).max(axis=2) > 60).sum())
        ok = ok and ink > 20
    check(ok, "zoomed in side by side, %s's tile draws its values: %s" % (name, got))

shots = os.environ.get("HT_SHOTS")
if shots:
    for size in ("640x400", "1920x1080"):
        for lay in ("side-by-side", "grid"):
            view("a.pfm", "b.pfm", "c.pfm", "d.pfm", "--reference", "b.pfm", "--layout", lay,
                 window=size, shot=os.path.join(shots, "layout-%s-%s.png" % (lay, size)))
sys.exit(1 if xwin.fails else 0)
