"""Ultra HDR JPEGs without hdrgm's XMP (src/io/image_uhdr.c): the gain map's metadata is read
from ISO 21496-1's APP2 ("urn:iso:std:iso:ts:21496:-1") instead. The test takes export's
Ultra HDR JPEG, strips both XMP packets (the primary's and the gain map's APP1) and rewrites
the MPF index for the new offsets (CIPA DC-007, in Python here), then finds hdrtone's HDR
rendition of the stripped file equal to the one read with XMP (the rationals' 2^-20 steps
apart). The ISO block is parsed by hdrtone, not skipped: a Gamma of 2 written into the ISO
block alone gives the rendition of the same Gamma written into the XMP alone (and not the
original); the common-denominator and three-channel layouts read the same; three channels
that differ, a short block, no metadata at all and an HDR base are refused naming the file."""
import json
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
DUMP = os.environ.get("HT_HDR_DUMP", "hdr_dump")
samples = htpy.samples_or_skip()
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_uhdriso_")
XMP = b"http://ns.adobe.com/xap/1.0/\0"
ISO = b"urn:iso:std:iso:ts:21496:-1\0"


def segments(data):
    """[(marker, start, end)] of the JPEG's marker segments up to SOS (start at 0xFF)."""
    assert data[:2] == b"\xff\xd8"
    p, out = 2, []
    while data[p] == 0xFF and data[p + 1] != 0xDA:
        n = struct.unpack(">H", data[p + 2:p + 4])[0]
        out.append((data[p + 1], p, p + 2 + n))
        p += 2 + n
    return out


def body(data, seg):
    return data[seg[1] + 4:seg[2]]


def mp_entries(data):
    """The TIFF header's offset of the primary's MPF index and the offset of its MP entries
    (0xB002) from there."""
    mpf = next(s for s in segments(data) if s[0] == 0xE2 and body(data, s).startswith(b"MPF\0"))
    tiff = mpf[1] + 8
    ifd = struct.unpack(">I", data[tiff + 4:tiff + 8])[0]
    count = struct.unpack(">H", data[tiff + ifd:tiff + ifd + 2])[0]
    for i in range(count):
        tag, _, _, val = struct.unpack(">HHII", data[tiff + ifd + 2 + 12 * i:][:12])
        if tag == 0xB002:
            return tiff, tiff + val
    raise AssertionError("no MP entries")


def split(data):
    """The primary JPEG and the gain map JPEG of an Ultra HDR file (by its MPF index)."""
    tiff, ent = mp_entries(data)
    size, off = struct.unpack(">II", data[ent + 20:ent + 28])
    return data[:tiff + off], data[tiff + off:tiff + off + size]


def join(primary, gain):
    """PRIMARY + GAIN with the MPF index's sizes and offset set for them (big-endian, as
    hdrtone writes it)."""
    p = bytearray(primary)
    tiff, ent = mp_entries(p)
    p[ent + 4:ent + 8] = struct.pack(">I", len(p))
    p[ent + 20:ent + 28] = struct.pack(">II", len(gain), len(p) - tiff)
    return bytes(p) + gain


def without(data, marker, sig):
    """DATA (one JPEG) without its segments of MARKER whose payload starts with SIG."""
    cut = [s for s in segments(data) if s[0] == marker and body(data, s).startswith(sig)]
    for s in reversed(cut):
        data = data[:s[1]] + data[s[2]:]
    return data


def with_iso(gain, block):
    """GAIN with its ISO 21496-1 payload (after the namespace) replaced by BLOCK."""
    s = next(s for s in segments(gain) if s[0] == 0xE2 and body(gain, s).startswith(ISO))
    seg = b"\xff\xe2" + struct.pack(">H", 2 + len(ISO) + len(block)) + ISO + block
    return gain[:s[1]] + seg + gain[s[2]:]


def iso_values(gain):
    """The ISO block's versions, flags and its 7 values as (numerator, denominator)."""
    b = next(body(gain, s) for s in segments(gain)
             if s[0] == 0xE2 and body(gain, s).startswith(ISO))[len(ISO):]
    vals = [struct.unpack(">iI", b[5 + 8 * k:13 + 8 * k]) for k in range(7)]
    return b[:4], b[4], vals


def iso_block(head, flags, vals, common=False, channels=1):
    """An ISO 21496-1 block: VALS (headrooms, then one channel's five), the channel's values
    repeated CHANNELS times, with each fraction's own denominator or one common one."""
    vals = vals[:2] + vals[2:] * channels
    flags |= (0x80 if channels == 3 else 0) | (0x08 if common else 0)
    out = head + bytes([flags])
    if common:
        d = vals[0][1]
        assert all(v[1] == d for v in vals)
        return out + struct.pack(">I", d) + b"".join(struct.pack(">i", n) for n, _ in vals)
    return out + b"".join(struct.pack(">iI", n, dd) for n, dd in vals)


def dump(path):
    out = path + ".f32"
    r = subprocess.run([DUMP, path, out], capture_output=True, text=True)
    check(r.returncode == 0, "hdr_dump %s: %s" % (path, r.stderr))
    if r.returncode:
        return None
    info = json.loads(r.stdout)
    return np.fromfile(out, dtype=np.float32).reshape(info["height"], info["width"], 3)


def write(name, data):
    path = os.path.join(tmp, name)
    open(path, "wb").write(data)
    return path


def same(a, b, what, rtol=2e-4):
    ok = a is not None and b is not None and a.shape == b.shape and \
        np.all(np.abs(a - b) <= rtol * np.abs(b) + 1e-3)
    check(ok, "%s: the renditions differ (max %s)" % (
        what, np.abs(a - b).max() if a is not None and b is not None and a.shape == b.shape
        else "shape"))


def refused(name, data, want):
    path = write(name, data)
    r = subprocess.run([DUMP, path, path + ".f32"], capture_output=True, text=True)
    check(r.returncode == 1 and path in r.stderr and want in r.stderr,
          "%s: status %d, %r (want %r)" % (name, r.returncode, r.stderr.strip(), want))


src = os.path.join(samples, "Desk.exr")
orig = os.path.join(tmp, "u.jpg")
r = subprocess.run([BIN, "export", src, "-o", orig, "--hdr", "pq"], capture_output=True,
                   text=True)
check(r.returncode == 0, "export --hdr pq: %s" % r.stderr)
if r.returncode:
    htpy.finish("test_uhdr_iso")
data = open(orig, "rb").read()
primary, gain = split(data)
p_iso, g_iso = without(primary, 0xE1, XMP), without(gain, 0xE1, XMP)
check(XMP not in p_iso and XMP not in g_iso and b"hdrgm" not in p_iso + g_iso,
      "the stripped file has no XMP and no hdrgm")
with_xmp = dump(orig)
iso_only = dump(write("iso.jpg", join(p_iso, g_iso)))
same(iso_only, with_xmp, "ISO 21496-1 alone against hdrgm's XMP")
check(with_xmp is not None and np.max(with_xmp) > 203 * 1.5,
      "the rendition is HDR (above 1.5 x 203 cd/m^2: %s)"
      % (np.max(with_xmp) if with_xmp is not None else None))

# Gamma 2 in the ISO block alone and in the XMP alone: the same rendition, not the original.
head, flags, vals = iso_values(g_iso)
g2 = list(vals)
g2[4] = (2 * vals[4][1], vals[4][1])
iso_g2 = dump(write("iso_g2.jpg", join(p_iso, with_iso(g_iso, iso_block(head, flags, g2)))))
xmp_g2 = gain.replace(b'hdrgm:Gamma="1"', b'hdrgm:Gamma="2"')
check(xmp_g2 != gain, "the gain map's XMP says Gamma=\"1\"")
xmp_g2 = dump(write("xmp_g2.jpg", join(primary, without(xmp_g2, 0xE2, ISO))))
same(iso_g2, xmp_g2, "Gamma 2: the ISO block against the XMP")
check(iso_g2 is not None and with_xmp is not None and
      np.mean(np.abs(iso_g2 - with_xmp) > 0.01 * with_xmp + 1e-3) > 0.1,
      "Gamma 2 changes the rendition")

# The other layouts of the same values; what is refused.
for common, channels in ((True, 1), (False, 3), (True, 3)):
    blk = iso_block(head, flags, vals, common, channels)
    got = dump(write("iso_%d_%d.jpg" % (common, channels), join(p_iso, with_iso(g_iso, blk))))
    same(got, with_xmp, "ISO block, common denominator %s, %d channels" % (common, channels))
three = iso_block(head, flags, vals, False, 3)
differ = three[:5 + 16 + 40 + 16] + struct.pack(">iI", vals[4][0] * 2, vals[4][1]) + \
    three[5 + 16 + 40 + 24:]
refused("iso_differ.jpg", join(p_iso, with_iso(g_iso, differ)), "differs between channels")
refused("iso_short.jpg", join(p_iso, with_iso(g_iso, iso_block(head, flags, vals)[:30])),
        "cut short")
refused("iso_backward.jpg", join(p_iso, with_iso(g_iso, iso_block(head, flags | 4, vals))),
        "HDR base")
refused("no_meta.jpg", join(p_iso, without(g_iso, 0xE2, ISO)), "no metadata for the gain map")
htpy.finish("test_uhdr_iso")
