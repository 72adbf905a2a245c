"""Pinned pixels, in a real window under Xvfb with real xdotool clicks: Ctrl+click pins two
pixels; the Pixel section lists each pin's values in both open images (the shown one and the
reference, read by a worker), and they equal `hdrtone stats --pixel X,Y --json`; the marks are
drawn on the pinned pixels and follow a pan; Backspace in the open box's typed field edits the
text and leaves the pins; a saved session reopens with the same pins, and with "pin_values":
"display" their bytes are the window's pixels under them; a network image (--listen) gives
its values while shown and says why not otherwise; with "working" (Rec. 2020 pixels,
--colorspace) the shown image's values are the inspector's in sRGB's primaries and every file's
the same shown or not (this caught the window's own load leaving --colorspace out); a session without the pins key (as
written before them) still opens, a malformed one is refused; Backspace clears the pins."""
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

check = xwin.check
BIN = os.environ["HT_BIN"]
MARK = np.array([255, 200, 40])   # panels_pins.cpp's colour of the marks


def pins(v, timeout=30):
    """The pin lines parsed, once no value is being read: {(pin, file): (x, y, role, mode,
    values)}."""
    end = time.time() + timeout
    while True:
        lines = v.notes("pin")
        if not any("reading" in l for l in lines) or time.time() > end:
            break
        time.sleep(0.2)
    out = {}
    for l in lines:
        w = l.split()
        out[(int(w[0]), int(w[3]))] = (int(w[1]), int(w[2]), w[4], w[5], w[6:])
    return out


def stats_pixel(path, x, y):
    r = subprocess.run([BIN, "stats", path, "--pixel", "%d,%d" % (x, y), "--json"],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["pixel"]["rgba"]


def mark_near(px, x, y, r=12):
    """Whether a mark's ring is within R pixels of (X, Y): a dozen pixels of its colour (a
    random image's pixel can come near it; a ring has ~60)."""
    box = px[max(0, y - r):y + r, max(0, x - r):x + r].astype(int)
    return int((np.abs(box - MARK).max(axis=2) <= 12).sum()) >= 12


tmp = tempfile.mkdtemp()
os.chdir(tmp)   # Ctrl+Shift+S saves ./hdrtone-session.json
rng = np.random.default_rng(29)
files = [os.path.join(tmp, n) for n in ("ref.pfm", "shown.pfm")]
base = rng.uniform(0.02, 4.0, (150, 240, 3)).astype(np.float32)
arrays = [base, base * rng.uniform(0.5, 1.5, base.shape).astype(np.float32)]
for path, a in zip(files, arrays):
    xwin.write_pfm(path, a)
args = [*files, "--window", "960x600", "--msaa", "1"]

v = xwin.Viewer(*args, "--keys", "shift+r n")   # ref.pfm the reference, shown.pfm shown
try:
    vp = v.layout()["viewport"]
    cx, cy = vp[0] + vp[2] // 2, vp[1] + vp[3] // 2
    clicks = [(cx - 37, cy - 21), (cx + 52, cy + 30)]
    for x, y in clicks:
        v.mod_click("ctrl", x, y)
    got = pins(v)
    px = v.pixels()
    check(len(got) == 4, "two pins, each with both images' values: %s" % v.notes("pin"))
    for (p, f), (x, y, role, mode, vals) in sorted(got.items()):
        want = stats_pixel(files[f], x, y)
        ok = len(vals) == 4 and np.allclose([float(t) for t in vals], want, rtol=1e-6)
        check(ok and mode == "file", "pin %d (%d,%d) in %s (%s): %s = stats --pixel %s"
              % (p, x, y, os.path.basename(files[f]), role, vals, want))
        check(np.allclose(want[:3], arrays[f][y, x], rtol=1e-6) and want[3] == 1,
              "stats --pixel %d,%d %s is the pixel written, %s" % (x, y, want, arrays[f][y, x]))
    roles = sorted(r for (_, _, r, _, _) in got.values())
    check(roles == ["reference", "reference", "shown", "shown"], "roles: %s" % roles)
    pinned = sorted({(x, y) for (x, y, *_) in got.values()})
    clicks_px = [got[(i + 1, 1)][:2] for i in range(2)]   # the pins' pixels, in click order
    for x, y in clicks:
        check(mark_near(px, x, y), "a mark is drawn at the Ctrl+click %d,%d" % (x, y))
    v.key("Right")   # the view pans 128 window pixels: the marks go with the image
    px = v.pixels()
    check(all(mark_near(px, x - 128, y) for x, y in clicks) and
          not any(mark_near(px, x, y) for x, y in clicks), "the marks follow the pan")
    v.key("Left")

    # Backspace in a typed field edits the text; the pins stay.
    v.key("ctrl+o")
    xwin.xdo("type", "--window", v.wid, "abc")
    v.key("BackSpace")
    check(v.notes("open_text") == ["ab"], "Backspace edits the open box's text: %s"
          % v.notes("open_text"))
    check(len(pins(v)) == 4, "Backspace in the text field leaves the pins")
    v.key("Escape")

    v.key("ctrl+shift+s")
    session = json.load(open("hdrtone-session.json"))
    check(sorted(map(tuple, session.get("pins", []))) == pinned,
          "the session holds the pins %s: %s" % (pinned, session.get("pins")))
    v.key("BackSpace")
    check(v.notes("pin") == [], "Backspace clears the pins")
finally:
    v.close()

v = xwin.Viewer("--session", "hdrtone-session.json", "--window", "960x600", "--msaa", "1")
try:
    again = pins(v)
    check(again == got, "the reopened session has the same pins and values:\n  %s\n  %s"
          % (sorted(again.items()), sorted(got.items())))
finally:
    v.close()

# Display bytes: what the window shows under each pin (1:1, MSAA 1, the same view): the
# shown image left of the wipe's divider (the viewport's middle), the reference right of it.
session["pin_values"] = "display"
json.dump(session, open("display.json", "w"))
v = xwin.Viewer("--session", "display.json", "--window", "960x600", "--msaa", "1")
try:
    shot = v.pixels()
    disp = pins(v)
    for i, (x, y) in enumerate(clicks):
        f = 1 if x < cx else 0
        vals = disp.get((i + 1, f), (0, 0, "", "", []))[4]
        win = [int(c) for c in shot[y, x]]
        ok = len(vals) == 3 and max(abs(int(a) - b) for a, b in zip(vals, win)) <= 1
        check(ok, "pin %d's display bytes in %s %s are the window's pixel %s"
              % (i + 1, os.path.basename(files[f]), vals, win))
finally:
    v.close()

# Working-space values of Rec. 2020 pixels (--colorspace): the shown image's are the
# inspector's "in sRGB" values under the cursor; each file's are the same whether it is shown
# (read from memory) or not (read by the worker).
session["pin_values"] = "working"
json.dump(session, open("working.json", "w"))
v = xwin.Viewer("--session", "working.json", "--window", "960x600", "--colorspace", "rec2020")
try:
    w1 = pins(v)
    xwin.xdo("mousemove", "--window", v.wid, *clicks[0])
    v.settle()
    conv = [l for l in v.notes("pixel") if l.startswith("in sRGB:")]
    rgb = [float(t) for t in conv[0].split()[3:8:2]] if conv else []
    got = [float(t) for t in w1.get((1, 1), (0, 0, "", "", []))[4][:3]]
    check(len(rgb) == 3 and np.allclose(got, rgb, rtol=2e-3) and
          not np.allclose(got, arrays[1][clicks_px[0][1], clicks_px[0][0]], rtol=1e-3),
          "pin 1's working values %s are the inspector's %s (not the file's)" % (got, conv))
    v.key("p")   # ref.pfm shown: its values from memory, shown.pfm's from the worker
    v.wait_loaded()
    w2 = pins(v)
    same = all(np.allclose([float(t) for t in w1[k][4]], [float(t) for t in w2[k][4]],
                           rtol=1e-7) for k in w1) and set(w1) == set(w2)
    check(same and w2[(1, 0)][2] == "shown", "the values are the same shown or not:\n  %s\n  %s"
          % (sorted(w1.items()), sorted(w2.items())))
finally:
    v.close()

# A network image (tev's protocol, --listen): its values while it is shown, and said to be a
# network image while another is (it is no file to read again).
v = xwin.Viewer(files[1], "--window", "960x600", "--listen", "127.0.0.1:0")
try:
    err = b""
    while b"on port" not in err and select.select([v.proc.stderr], [], [], 10)[0]:
        err += os.read(v.proc.stderr.fileno(), 4096)
    port = re.search(rb"on port (\d+)", err)
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "tev_client.py"),
                    port.group(1).decode() if port else "0", "image", "net", files[0]],
                   check=True, timeout=60)
    v.settle(2)
    v.mod_click("ctrl", *clicks[0])
    net = pins(v)
    x, y, role, _, vals = net.get((1, 1), (0, 0, "", "", []))
    want = arrays[0][y, x] if role else None
    check(role == "shown" and np.allclose([float(t) for t in vals[:3]], want, rtol=1e-6),
          "the shown network image's values %s are its pixel's %s" % (vals, want))
    v.key("Up")   # shown.pfm again: the values read while it was shown stay
    v.wait_loaded()
    kept = pins(v).get((1, 1), (0, 0, "", "", []))[4]
    check(kept == vals, "not shown, the network image keeps its values: %s" % kept)
    v.mod_click("ctrl", *clicks[1])   # new pins: a network image not shown cannot give them
    said = " ".join(pins(v).get((2, 1), (0, 0, "", "", []))[4])
    check("network image" in said, "not shown, the network image says why: '%s'" % said)
finally:
    v.close()

# Written before pins (no key): opens; malformed pins: refused, the file named.
old = {k: val for k, val in session.items() if k not in ("pins", "pin_values")}
json.dump(old, open("old.json", "w"))
r = subprocess.run([BIN, "view", "--session", "old.json", "--screenshot", "old.png"],
                   capture_output=True, text=True, timeout=120)
check(r.returncode == 0, "a session without pins opens: %s" % r.stderr.strip())
for name, bad in (("short.json", [[1]]), ("many.json", [[1, 2]] * 9), ("frac.json", [[1.5, 2]])):
    json.dump(dict(session, pins=bad), open(name, "w"))
    r = subprocess.run([BIN, "view", "--session", name, "--screenshot", "x.png"],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 1 and name in r.stderr and "pins" in r.stderr,
          "%s refused: %s" % (name, r.stderr.strip()))
sys.exit(1 if xwin.fails else 0)
