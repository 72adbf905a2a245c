"""Lighting analysis in the window, driven by real input under Xvfb:
  1. Shift+drag on the picture selects a region: the Region section shows its rectangle and
     statistics, equal to `stats --region` of the same rectangle (JSON);
  2. the false-colour view draws its legend beside the picture, in falsecolor's palette,
     and the picture keeps its place right of it;
  3. the channel view of a motion-vector part (../shared multipart.0001.exr) is not black."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

BIN = os.environ["HT_BIN"]
SHARED = os.environ.get("HT_SHARED", "")
check, fails, write_pfm = xwin.check, xwin.fails, xwin.write_pfm


def region_lines(v):
    out = {}
    with open(v.layout_path) as f:
        for line in f:
            if line.startswith("region: "):
                key, _, rest = line[8:].strip().partition(" ")
                out[key] = rest
    return out


def region_case(tmp):
    img = os.path.join(tmp, "r.pfm")
    yy, xx = np.mgrid[0:120, 0:200]
    lum = np.exp2(xx / 25.0 - 3) * (1 + 0.3 * np.cos(yy / 5.0))
    write_pfm(img, np.dstack([lum, lum * 0.8, lum * 1.2]).astype(np.float32))
    v = xwin.Viewer(img, "--window", "960x600", "--msaa", "1")
    try:
        v.key("ctrl+0")   # 1:1: screen pixels are image pixels
        vp = v.layout()["viewport"]
        # The image (200x120) is centred in the viewport at 1:1.
        ox, oy = vp[0] + (vp[2] - 200) // 2, vp[1] + (vp[3] - 120) // 2
        xwin.xdo("keydown", "--window", v.wid, "shift")
        v.drag(ox + 30.5, oy + 20.5, ox + 120.5, oy + 90.5)
        xwin.xdo("keyup", "--window", v.wid, "shift")
        v.settle()
        lines = region_lines(v)
    finally:
        v.close()
    rect = lines.get("rectangle", "").replace(" - ", ",")
    check(rect in ("30,20,120,90", "30,20,119,89", "31,21,120,90"),
          "Shift+drag selects the rectangle under the mouse: '%s'" % rect)
    if not rect:
        return
    r = subprocess.run([BIN, "stats", img, "--region", rect, "--json"], capture_output=True,
                       text=True)
    want = json.loads(r.stdout.splitlines()[0])["region"]
    got = lines.get("pixels", "").split()
    check(got and int(got[0]) == want["pixels"], "region pixels %s = stats --region %d"
          % (got[:1], want["pixels"]))
    mean = lines.get("cd/m2", "")
    fields = dict(zip(mean.split()[0::2], mean.split()[1::2]))
    wl = want["luminance_cd_m2"]
    check("min" in fields and abs(float(fields["min"]) - wl["min"]) <= 1e-3 * wl["min"],
          "region cd/m2 min %s = stats --region %.6g" % (fields.get("min"), wl["min"]))


def falsecolor_case(tmp):
    img = os.path.join(tmp, "f.pfm")
    yy, xx = np.mgrid[0:100, 0:300]
    lum = 10.0 ** (xx / 100.0)   # 1 to 1000 cd/m2 (relative units: 1 unit = 1)
    write_pfm(img, np.dstack([lum] * 3).astype(np.float32))
    v = xwin.Viewer(img, "--window", "960x600", "--view", "falsecolor", "--fc-log", "3",
                    "--fc-max", "1000")
    try:
        vp = v.layout()["viewport"]
        px = v.pixels()
    finally:
        v.close()
    check(vp[0] > 100, "false colour: the picture starts right of the legend (x %d)" % vp[0])
    strip = px[vp[1] + 60:vp[1] + 250, 10:30].astype(int)
    colours = {tuple(c) for c in strip.reshape(-1, 3)[::7]}
    sat = [c for c in colours if max(c) - min(c) > 80]
    check(len(sat) > 10, "false colour: the legend's strip shows the palette (%d colours)"
          % len(sat))


def channel_case():
    mp = os.path.join(SHARED, "exr-samples", "multipart.0001.exr")
    if not os.path.exists(mp):
        print("skipped (no ../shared): the motion-vector part")
        return
    parts = subprocess.run([BIN, "stats", mp, "--json"], capture_output=True, text=True).stdout
    names = [p.get("name", "") for p in json.loads(parts.splitlines()[0]).get("parts", [])]
    idx = next((i for i, n in enumerate(names) if "motion" in n.lower() or "mv" in n.lower()
                or "forward" in n.lower()), None)
    if idx is None:
        print("skipped: no motion-vector part in", names)
        return
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    shot = os.path.join(tmp, "c.png")
    subprocess.run([BIN, "view", mp, "--part", str(idx), "--view", "channel", "--screenshot",
                    shot, "--frames", "3", "--no-panels"], check=True, timeout=120,
                   capture_output=True)
    from PIL import Image
    a = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    check((a.max(axis=2) > 40).mean() > 0.05,
          "channel view of part %d '%s' is not black (%.0f%% lit)"
          % (idx, names[idx], 100 * (a.max(axis=2) > 40).mean()))


def main():
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    region_case(tmp)
    falsecolor_case(tmp)
    channel_case()
    sys.exit(1 if fails else 0)


main()
