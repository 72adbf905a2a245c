"""An HDR AVIF carries its content light level (src/io/avif_boxes.c adds the clli box that
libavif 0.11 cannot write): the boxes walked here, independently of the writer, hold one clli
property associated with the primary item, whose MaxCLL and MaxFALL are the PQ PNG's cLLi of
the same export rounded to cd/m^2; every item location still points at the same coded bytes
(avifdec decodes the file to the same pixels as the file without the box would give: the PNG's
codes within half a 10-bit step), libheif's heif-info lists the box with those values, and an
SDR AVIF has none."""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_avif_light_")
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets",
                   "default.exr")


def export(out, *opts):
    r = subprocess.run([BIN, "export", src, "-o", out, *opts], capture_output=True, text=True)
    check(r.returncode == 0, "export %s: %s" % (out, r.stderr))
    return out


def boxes(d, at, end):
    """(type, body start, box end) of the boxes in d[at:end] (32-bit sizes only)."""
    out = []
    while end - at >= 8:
        n, t = struct.unpack(">I4s", d[at:at + 8])
        check(8 <= n <= end - at, "box %r at %d: size %d" % (t, at, n))
        out.append((t.decode("latin-1"), at + 8, at + n))
        at += n
    check(at == end, "boxes end at %d, not %d" % (at, end))
    return out


def child(d, parent, name, full):
    found = [b for b in boxes(d, parent[1] + (4 if parent[3] else 0), parent[2]) if b[0] == name]
    check(len(found) == 1, "%d %s boxes" % (len(found), name))
    return found[0] + (full,)


def clli_of(path):
    """The clli values associated with the primary item, or None without a clli property."""
    d = open(path, "rb").read()
    top = {b[0]: b + (False,) for b in boxes(d, 0, len(d))}
    meta = top["meta"][:3] + (True,)
    iprp = child(d, meta, "iprp", False)
    ipco = child(d, iprp, "ipco", False)
    ipma = child(d, iprp, "ipma", True)
    pitm = child(d, meta, "pitm", True)
    primary = struct.unpack(">H", d[pitm[1] + 4:pitm[1] + 6])[0]
    props = boxes(d, ipco[1], ipco[2])
    version, flags = d[ipma[1]], d[ipma[1] + 3]
    check(version == 0 and flags == 0, "ipma version %d flags %d" % (version, flags))
    p = ipma[1] + 4
    count = struct.unpack(">I", d[p:p + 4])[0]
    p += 4
    assoc = {}
    for _ in range(count):
        item, k = struct.unpack(">HB", d[p:p + 3])
        assoc[item] = [b & 0x7f for b in d[p + 3:p + 3 + k]]
        p += 3 + k
    check(p == ipma[2], "ipma's entries end at %d, the box at %d" % (p, ipma[2]))
    clli = [i + 1 for i, b in enumerate(props) if b[0] == "clli"]
    check(len(clli) <= 1, "%d clli boxes" % len(clli))
    if not clli:
        return None
    check(clli[0] in assoc.get(primary, []), "clli (property %d) not associated with item %d: %r"
          % (clli[0], primary, assoc))
    b = props[clli[0] - 1]
    check(b[2] - b[1] == 4, "clli body %d bytes" % (b[2] - b[1]))
    return struct.unpack(">HH", d[b[1]:b[2]])


def png_clli(path):
    d = open(path, "rb").read()
    i = d.find(b"cLLi")
    check(i > 0, "%s: no cLLi" % path)
    return tuple(round(v / 10000.0) for v in struct.unpack(">II", d[i + 4:i + 12]))


def codes(path):
    from PIL import Image
    return np.asarray(Image.open(path)).astype(np.int64)


for name, opts in (("pq", ("--hdr", "pq")),
                   ("hlg", ("--hdr", "hlg", "--display-space", "display-p3", "--quality", "80"))):
    avif = export(os.path.join(tmp, name + ".avif"), *opts)
    png = export(os.path.join(tmp, name + ".png"), *opts)
    want = png_clli(png)
    got = clli_of(avif)
    check(got == want, "%s: clli %r, the PNG's cLLi %r" % (name, got, want))
    info = subprocess.run(["heif-info", "-d", avif], capture_output=True, text=True).stdout
    check("max_content_light_level: %d" % want[0] in info and
          "max_pic_average_light_level: %d" % want[1] in info,
          "%s: heif-info -d does not show clli %r:\n%s" % (name, want, info[-1500:]))
    dec = os.path.join(tmp, name + "_dec.png")
    r = subprocess.run(["avifdec", "-d", "16", avif, dec], capture_output=True, text=True)
    check(r.returncode == 0, "avifdec %s: %s" % (avif, r.stderr))
    if name == "pq":   # lossless: the coded bytes found where iloc says
        d = np.abs(codes(dec) - codes(png)).max()
        check(d <= 33, "pq: avifdec's pixels %d codes from the PNG's" % d)

check(clli_of(export(os.path.join(tmp, "sdr.avif"))) is None, "an SDR AVIF with a clli box")
print("ok: AVIF clli box")
