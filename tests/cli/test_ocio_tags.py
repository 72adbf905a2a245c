#!/usr/bin/env python3
"""The tags of export --view ocio (issue 28), read from the PNG's own chunks by this test: they
follow the colour space the view writes (the display's). sRGB - Display: cICP 1/13/0/1 and
sRGB; Display P3 - Display: cICP 12/13/0/1 and the Display P3 ICC profile that --display-space
display-p3 writes; Rec.1886 Rec.709 - Display: no cICP (H.273's transfer 1 is BT.709's camera
curve, not BT.1886's gamma 2.4), gAMA 1/2.4 and the rec709-gamma24 profile; Rec.2100-PQ -
Display: a 16-bit PNG, cICP 9/16/0/1 and cLLi equal to the light levels numpy measures from its
codes by ST 2084's formula; 8 bits or JPEG refused for PQ with no output. A view of another
display's colour space (HDR video on sRGB, SDR video on PQ), the Raw view (untagged), and a
user's config whose display colour space has another name (untagged: no colour chunk)."""
import os, struct, subprocess, sys, zlib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np
try:
    import png
except ImportError as e:
    print("skipped:", e, "(scripts/setup: python3-png)")
    sys.exit(77)

binary, config, tmp, env = htpy.ocio_context()
check = htpy.check

# Greys over 16 stops and saturated colours, bright enough to reach the PQ view's peak.
rng = np.random.default_rng(28)
pixels = (2.0 ** rng.uniform(-8, 8, (12, 16, 1)) * rng.uniform(0.05, 1, (12, 16, 3)))
src = os.path.join(tmp, "in.exr")
htpy.write_exr(src, pixels.astype(np.float32))
COLOUR_CHUNKS = (b"cICP", b"sRGB", b"iCCP", b"gAMA", b"cHRM", b"mDCv", b"cLLi")


def chunks(path):
    """The PNG's chunks by type (the first of each), and IHDR's bit depth."""
    d = open(path, "rb").read()
    check(d[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG")
    p, out = 8, {}
    while p + 8 <= len(d):
        n, = struct.unpack(">I", d[p:p + 4])
        out.setdefault(d[p + 4:p + 8], d[p + 8:p + 8 + n])
        p += 12 + n
    return out, out[b"IHDR"][8]


def export(out, *args, ok=True):
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([binary, "export", src, "-o", out, "--backend", "cpu", *args],
                       capture_output=True, text=True, timeout=120, env=env)
    check((r.returncode == 0) == ok, f"export {args}: exit {r.returncode}: {r.stderr}")
    return r


def icc(c):
    """The iCCP chunk's profile (after its name, a NUL and the method byte)."""
    body = c.get(b"iCCP")
    return zlib.decompress(body[body.index(b"\0") + 2:]) if body else None


def same_profile(a, b):
    """The same ICC profile but for the header's creation time and profile ID."""
    strip = lambda p: p[:24] + p[36:84] + p[100:] if p else None
    return a is not None and strip(a) == strip(b)


def ocio(out, display=None, view=None, *more):
    args = ["--view", "ocio"] + (["--ocio-display", display] if display else []) + \
           (["--ocio-view", view] if view else []) + list(more)
    export(out, *args)
    return chunks(out)


def only(c, kinds, what):
    extra = [k.decode() for k in COLOUR_CHUNKS if k in c and k not in kinds]
    check(not extra, f"{what}: colour chunks {extra} besides {[k.decode() for k in kinds]}")


# The tone mapping's own outputs in those display spaces: the same profiles are expected.
tm_profile = {}
for space in ("display-p3", "rec709-gamma24"):
    out = os.path.join(tmp, f"tm_{space}.png")
    export(out, "--display-space", space)
    tm_profile[space] = icc(chunks(out)[0])
    check(tm_profile[space] is not None, f"--display-space {space}: no iCCP")

# sRGB (the default display) and the HDR view on it: tagged as the display, sRGB.
for name, c in (("default", ocio(os.path.join(tmp, "srgb.png"))),
                ("HDR view on sRGB", ocio(os.path.join(tmp, "srgb_hdr.png"), "sRGB - Display",
                                          "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)"))):
    tags, depth = c
    check(depth == 8, f"{name}: {depth} bits")
    check(tags.get(b"cICP") == bytes([1, 13, 0, 1]), f"{name}: cICP {tags.get(b'cICP')}")
    check(b"sRGB" in tags, f"{name}: no sRGB chunk")
    only(tags, (b"cICP", b"sRGB"), name)

tags, depth = ocio(os.path.join(tmp, "p3.png"), "Display P3 - Display")
check(tags.get(b"cICP") == bytes([12, 13, 0, 1]), f"P3: cICP {tags.get(b'cICP')}")
check(same_profile(icc(tags), tm_profile["display-p3"]), "P3: not the Display P3 profile")
only(tags, (b"cICP", b"iCCP"), "P3")

tags, depth = ocio(os.path.join(tmp, "r1886.png"), "Rec.1886 Rec.709 - Display")
check(b"cICP" not in tags, "Rec.1886: a cICP chunk")
check(tags.get(b"gAMA") == struct.pack(">I", 41667), f"Rec.1886: gAMA {tags.get(b'gAMA')}")
check(same_profile(icc(tags), tm_profile["rec709-gamma24"]),
      "Rec.1886: not the gamma 2.4 profile")
only(tags, (b"iCCP", b"gAMA"), "Rec.1886")

# PQ: 16 bits by default, cICP, and cLLi as ST 2084 decodes the codes (numpy).
m1, m2 = 2610 / 16384, 2523 / 4096 * 128
c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32


def pq_nits(code):
    e = (code / 65535.0) ** (1 / m2)
    return 10000.0 * (np.maximum(e - c1, 0) / (c2 - c3 * e)) ** (1 / m1)


for name, view in (("PQ", None), ("SDR view on PQ", "ACES 1.0 - SDR Video")):
    out = os.path.join(tmp, f"pq_{name[:3]}.png")
    tags, depth = ocio(out, "Rec.2100-PQ - Display", view)
    check(depth == 16, f"{name}: {depth} bits")
    check(tags.get(b"cICP") == bytes([9, 16, 0, 1]), f"{name}: cICP {tags.get(b'cICP')}")
    only(tags, (b"cICP", b"cLLi"), name)
    w, h, rows, info = png.Reader(filename=out).asDirect()
    m = pq_nits(np.vstack([np.array(r, float) for r in rows]).reshape(h, w, 3)).max(axis=2)
    cll, fall = struct.unpack(">II", tags.get(b"cLLi", bytes(8)))
    check(abs(cll / 1e4 - m.max()) <= 1e-3 * m.max() + 1e-3, f"{name}: MaxCLL {cll / 1e4} "
          f"against {m.max()}")
    check(abs(fall / 1e4 - m.mean()) <= 1e-3 * m.mean() + 1e-3, f"{name}: MaxFALL {fall / 1e4} "
          f"against {m.mean()}")
    check(m.max() > 100, f"{name}: peak {m.max()} cd/m^2: not an HDR picture")

# PQ in 8 bits or JPEG: refused, naming the display's colour space, nothing written.
for out, more in (("pq8.png", ("--depth", "8")), ("pq.jpg", ())):
    out = os.path.join(tmp, out)
    r = export(out, "--view", "ocio", "--ocio-display", "Rec.2100-PQ - Display", *more,
               ok=False)
    check("Rec.2100-PQ - Display" in r.stderr and "PQ" in r.stderr, f"{out}: {r.stderr!r}")
    check(not os.path.exists(out), f"{out}: written")

# Raw (a data space) and a display colour space of another name: untagged.
tags, depth = ocio(os.path.join(tmp, "raw.png"), None, "Raw")
only(tags, (), "Raw")
mine = os.path.join(tmp, "mine.ocio")
with open(config) as f, open(mine, "w") as g:
    g.write(f.read().replace("sRGB - Display", "My Monitor"))
tags, depth = ocio(os.path.join(tmp, "mine.png"), None, None, "--ocio", mine)
only(tags, (), "a display colour space of another name")

htpy.finish("test_ocio_tags")
