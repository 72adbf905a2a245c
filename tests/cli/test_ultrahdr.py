"""Ultra HDR gain-map JPEGs (export --hdr pq -o x.jpg; src/io/uhdr_write.c, image_uhdr.c)
checked by a decoder written here from Google's Ultra HDR v1 format page, not hdrtone's code:
the MPF index (CIPA DC-007) and the GContainer XMP locate the gain map, its hdrgm XMP and its
ISO 21496-1 metadata agree, Pillow decodes both JPEGs, and
  HDR = (SDR + offset_sdr) * 2^(min + (max - min) * g^(1/gamma)) - offset_hdr
at the full display boost rebuilds the HDR rendition: its luminance follows the PQ PNG's of the
same export (decoded here with ST 2084) up to one scale factor, within 5 % on 95 % of the
pixels; the base is the SDR JPEG export; hdrtone's own read-back agrees with this decoder;
exiftool (when installed) reads the MPF and XMP as a second, independent parser; malformed
files are refused naming the file."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import io
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np, Image  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
DUMP = os.environ.get("HT_HDR_DUMP", "hdr_dump")
samples = htpy.samples_or_skip()
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_uhdr_")
REF_WHITE = 203.0   # BT.2408: SDR white in the HDR rendition, cd/m^2 (docs/hdr.md)


def segments(data, start=0):
    """The marker segments of the JPEG at START up to SOS: [(marker, payload, offset)]."""
    assert data[start:start + 2] == b"\xff\xd8", "no SOI at %d" % start
    p, out = start + 2, []
    while p + 4 <= len(data) and data[p] == 0xFF:
        m = data[p + 1]
        n = struct.unpack(">H", data[p + 2:p + 4])[0]
        out.append((m, data[p + 4:p + 2 + n], p))
        if m == 0xDA:
            break
        p += 2 + n
    return out


def mpf_images(data):
    """[(offset in the file, length)] of the MP entries of the primary's MPF APP2."""
    for m, body, at in segments(data):
        if m == 0xE2 and body.startswith(b"MPF\0"):
            tiff = at + 4 + 4
            t = data[tiff:]
            e = ">" if t[:2] == b"MM" else "<"
            ifd = struct.unpack(e + "I", t[4:8])[0]
            count = struct.unpack(e + "H", t[ifd:ifd + 2])[0]
            for i in range(count):
                at = ifd + 2 + 12 * i
                tag, typ, cnt, val = struct.unpack(e + "HHII", t[at:at + 12])
                if tag == 0xB002:
                    ents = [struct.unpack(e + "IIIHH", t[val + 16 * k:val + 16 * k + 16])
                            for k in range(cnt // 16)]
                    return [(0 if k == 0 else off + tiff, size)
                            for k, (_, size, off, _, _) in enumerate(ents)]
    return None


def xmp(data, start=0):
    for m, body, _ in segments(data, start):
        if m == 0xE1 and body.startswith(b"http://ns.adobe.com/xap/1.0/\0"):
            return body[29:].decode()
    return ""


def iso_meta(data, start):
    """ISO 21496-1's fields of the gain map JPEG's APP2 (a single-channel map)."""
    for m, body, _ in segments(data, start):
        if m == 0xE2 and body.startswith(b"urn:iso:std:iso:ts:21496:-1\0"):
            b = body[28:]
            minv, wv, flags = struct.unpack(">HHB", b[:5])
            vals, p = [], 5
            for k in range(7):
                n, d = struct.unpack(">iI" if k in (2, 3, 5, 6) else ">II", b[p:p + 8])
                vals.append(n / d)
                p += 8
            names = ["HDRCapacityMin", "HDRCapacityMax", "GainMapMin", "GainMapMax", "Gamma",
                     "OffsetSDR", "OffsetHDR"]
            return minv, flags, dict(zip(names, vals))
    return None


def srgb_decode(e):
    return np.where(e <= 0.04045, e / 12.92, ((e + 0.055) / 1.055) ** 2.4)


def pq_decode(e):
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    p = e ** (1 / m2)
    return 10000 * (np.maximum(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1)


def luminance(rgb):   # BT.709 primaries (--display-space srgb)
    return rgb @ np.array([0.2126, 0.7152, 0.0722])


def decode_uhdr(path):
    """(base codes, HDR rendition relative to SDR white, metadata) by Ultra HDR v1."""
    data = open(path, "rb").read()
    imgs = mpf_images(data)
    check(imgs is not None and len(imgs) == 2, "%s: MPF entries %s" % (path, imgs))
    prim = xmp(data)
    check('hdrgm:Version="1.0"' in prim, "primary XMP lacks hdrgm:Version")
    length = re.search(r'Item:Semantic="GainMap"[^>]*Item:Length="(\d+)"', prim)
    (_, plen), (goff, glen) = imgs
    check(length and int(length.group(1)) == glen, "Item:Length %s, MPF %d" % (length, glen))
    check(goff == plen and goff + glen == len(data), "MPF: %s, file %d" % (imgs, len(data)))
    gx = xmp(data, goff)
    meta = {k: float(v) for k, v in re.findall(r'hdrgm:(\w+)="([-0-9.e+]+)"', gx)}
    check(re.search(r'hdrgm:BaseRenditionIsHDR="False"', gx), "BaseRenditionIsHDR")
    iso = iso_meta(data, goff)
    check(iso is not None and iso[0] == 0 and iso[1] & 0x80 == 0, "ISO 21496-1: %s" % (iso,))
    if iso:
        for k, v in iso[2].items():
            check(abs(v - meta[k]) < 1e-5, "ISO %s %g, XMP %g" % (k, v, meta.get(k, -1)))
    check(meta["GainMapMin"] <= 0 <= meta["GainMapMax"] and meta["Gamma"] > 0 and
          meta["HDRCapacityMin"] == 0, "hdrgm values %s" % meta)
    # the rendition is for a 1000 cd/m^2 display, SDR white at 203: a boost of 1000 / 203
    check(abs(meta["HDRCapacityMax"] - np.log2(1000 / REF_WHITE)) < 1e-6,
          "HDRCapacityMax %g" % meta["HDRCapacityMax"])
    base = np.asarray(Image.open(io.BytesIO(data[:plen])).convert("RGB"))
    gm = Image.open(io.BytesIO(data[goff:goff + glen]))
    if gm.size != (base.shape[1], base.shape[0]):
        gm = gm.resize((base.shape[1], base.shape[0]), Image.BILINEAR)
    g = np.asarray(gm.convert("L"), dtype=np.float64) / 255.0
    log_boost = meta["GainMapMin"] + (meta["GainMapMax"] - meta["GainMapMin"]) * \
        g ** (1 / meta["Gamma"])
    sdr = srgb_decode(base / 255.0)
    hdr = (sdr + meta["OffsetSDR"]) * np.exp2(log_boost)[..., None] - meta["OffsetHDR"]
    return base, hdr, meta


def hdrtone(*args):
    r = subprocess.run([BIN] + list(args), capture_output=True, text=True)
    return r.returncode, r.stderr


def png16(path):
    import png
    w, h, rows, info = png.Reader(path).asDirect()
    return np.vstack([np.asarray(r, dtype=np.float64) for r in rows]).reshape(h, w, 3) / 65535


LUM = {"srgb": [0.2126, 0.7152, 0.0722], "display-p3": [0.2289746, 0.6917385, 0.0792869]}


def one(name, space):
    """Exports NAME as Ultra HDR, SDR JPEG and PQ PNG in SPACE and checks them; the first."""
    src = os.path.join(samples, name)
    u, s, q = (os.path.join(tmp, name + x) for x in (".u.jpg", ".sdr.jpg", ".pq.png"))
    for out, more in ((u, ["--hdr", "pq"]), (s, []), (q, ["--hdr", "pq"])):
        rc, err = hdrtone("export", "--backend", "cpu", src, "-o", out, "--display-space",
                          space, *more)
        check(rc == 0, "export %s %s: %s" % (out, more, err))
    base, hdr, meta = decode_uhdr(u)
    sdr = np.asarray(Image.open(s).convert("RGB"))
    check(np.array_equal(base, sdr), "%s: the base differs from the SDR export" % name)
    sos = lambda d: d[d.index(b"\xff\xda"):]  # noqa: E731  the entropy-coded base
    ud, sd = open(u, "rb").read(), open(s, "rb").read()
    check(sos(ud[:mpf_images(ud)[0][1]]) == sos(sd), "%s: the base's scan differs" % name)
    lum = np.array(LUM[space])
    want = pq_decode(png16(q)) @ lum   # cd/m^2
    got = hdr @ lum * REF_WHITE
    black = 0.1   # the display's own black (--drange 10000 of 1000 cd/m^2), on both
    ratio = (got + black) / (want + black)
    scale = np.median(ratio)
    dev = np.abs(ratio / scale - 1)
    share = np.mean(dev <= 0.05)
    print("%s: scale %.4f, within 5%%: %.4f, p95 %.4f, max %.3f; map %s" %
          (name, scale, share, np.percentile(dev, 95), dev.max(),
           {k: round(v, 3) for k, v in meta.items()}))
    check(share >= 0.95, "%s: %.3f of the pixels within 5 %%" % (name, share))
    check(abs(scale - 1) < 0.02, "%s: scale %.4f (SDR white at 203 cd/m^2)" % (name, scale))
    # hdrtone's own read-back (image_load, through tests/tools/hdr_dump): linear Rec. 709
    back = dump(u)
    if back is not None:
        rel = (luminance(back) + black) / (got + black) - 1
        print("%s: read-back vs this decoder: p95 %.4f, max %.3f" %
              (name, np.percentile(np.abs(rel), 95), np.abs(rel).max()))
        check(np.mean(np.abs(rel) <= 0.02) >= 0.99, "%s: hdrtone's read-back: %.4f within 2 %%"
              % (name, np.mean(np.abs(rel) <= 0.02)))
    base_back = dump(u, "--sdr-base")
    if base_back is not None:
        want_base = srgb_decode(base / 255.0) @ lum * REF_WHITE
        rel = np.abs((luminance(base_back) + black) / (want_base + black) - 1)
        check(np.mean(rel <= 0.02) >= 0.99, "%s: --sdr-base: %.4f within 2 %%"
              % (name, np.mean(rel <= 0.02)))
    return u


def dump(path, *more):
    """hdrtone's decode of PATH (H x W x 3), or None after a recorded failure."""
    out = os.path.join(tmp, "dump.f32")
    r = subprocess.run([DUMP, path, out] + list(more), capture_output=True, text=True)
    check(r.returncode == 0, "hdr_dump %s: %s" % (path, r.stderr))
    if r.returncode:
        return None
    info = json.loads(r.stdout)
    return np.fromfile(out, dtype=np.float32).reshape(info["height"], info["width"], 3)


def refused(path, data, want):
    """hdrtone refuses DATA (as PATH), naming the file and WANT."""
    open(path, "wb").write(data)
    r = subprocess.run([DUMP, path, path + ".f32"], capture_output=True, text=True)
    check(r.returncode == 1 and path in r.stderr and want in r.stderr,
          "%s: status %d, %r (want %r)" % (path, r.returncode, r.stderr, want))


u = one("Desk.exr", "srgb")
one("Cannon.exr", "display-p3")
# The GPU (where there is one, llvmpipe too): the base from the same upload as the rendition
# equals the GPU's SDR export, the rendition the CPU's within 5 % on 99 % of the pixels.
src = os.path.join(samples, "Desk.exr")
g, gs = os.path.join(tmp, "g.jpg"), os.path.join(tmp, "gs.jpg")
if hdrtone("export", "--backend", "gpu", src, "-o", g, "--hdr", "pq")[0] == 0:
    rc, err = hdrtone("export", "--backend", "gpu", src, "-o", gs)
    gb, gh, _ = decode_uhdr(g)
    check(rc == 0 and np.array_equal(gb, np.asarray(Image.open(gs).convert("RGB"))),
          "GPU: the base differs from the GPU's SDR export")
    ch = decode_uhdr(u)[1]
    r = (luminance(gh) + 1e-3) / (luminance(ch) + 1e-3)
    check(np.mean(np.abs(r - 1) <= 0.05) >= 0.99, "GPU rendition: %.4f within 5 %% of the CPU's"
          % np.mean(np.abs(r - 1) <= 0.05))
else:
    print("note: no GPU backend: its Ultra HDR path not checked")
data = open(u, "rb").read()
plen = mpf_images(data)[0][1]
mpf = data.index(b"MPF\0")
bad = bytearray(data)
bad[mpf:mpf + 4] = b"XYZ\0"   # no MP index
refused(os.path.join(tmp, "no_mpf.jpg"), bytes(bad), "no MPF index")
bad = bytearray(data)
bad[mpf + 4 + 66 + 8:mpf + 4 + 66 + 12] = b"\x7f\xff\xff\xff"   # the gain map past the end
refused(os.path.join(tmp, "far.jpg"), bytes(bad), "outside the file")
g = data.index(b"hdrgm:GainMapMax=", plen)
refused(os.path.join(tmp, "no_max.jpg"), data[:g] + b"hdrgm:GainMapMaz=" + data[g + 17:],
        "no hdrgm:GainMapMax")
refused(os.path.join(tmp, "cut.jpg"), data[:plen + 100], "outside the file")

# exiftool, a second parser of the MPF index and the XMP (libimage-exiftool-perl)
if shutil.which("exiftool"):
    r = subprocess.run(["exiftool", "-j", "-G", "-a", u], capture_output=True, text=True)
    tags = json.loads(r.stdout)[0] if r.returncode == 0 else {}
    check(tags.get("MPF:NumberOfImages") == 2 and str(tags.get("XMP:Version")) == "1.0",
          "exiftool: %s" % {k: v for k, v in tags.items() if k.startswith(("MPF", "XMP"))})
    ex = subprocess.run(["exiftool", "-b", "-MPImage2", u], capture_output=True).stdout
    check(ex == data[plen:], "exiftool's MPImage2 is not the gain map JPEG")
else:
    print("note: no exiftool: the second parser's check not made (scripts/setup)")
htpy.finish("test_ultrahdr")
