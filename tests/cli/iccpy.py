"""Colour references of the PNG/JPEG colour tests, written here from the standards and
independent of lcms2: an ICC v4 matrix/TRC profile writer, a PNG writer with any chunks, the
sRGB, BT.709 and gamma curves, RGB->XYZ from chromaticities and Bradford adaptation in numpy."""
import struct
import zlib

import numpy as np

D65 = (0.3127, 0.3290)
D50_XYZ = np.array([0.9642, 1.0, 0.8249])   # the ICC PCS white (ICC.1, 7.2.16)
REC709 = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06), D65)
P3D65 = ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), D65)
REC2020 = ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), D65)
ADOBE = ((0.64, 0.33), (0.21, 0.71), (0.15, 0.06), D65)   # Adobe RGB (1998)
BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367],
                     [0.0389, -0.0685, 1.0296]])


def white_xyz(xy):
    return np.array([xy[0] / xy[1], 1.0, (1 - xy[0] - xy[1]) / xy[1]])


def rgb_to_xyz(space):
    """RGB -> XYZ (Y of white = 1) of primaries and white SPACE ((x, y) x 4)."""
    p = np.array([[x, y, 1 - x - y] for x, y in space[:3]]).T
    s = np.linalg.solve(p, white_xyz(space[3]))
    return p * s


def bradford(src_xyz, dst_xyz):
    a, b = BRADFORD @ src_xyz, BRADFORD @ dst_xyz
    return np.linalg.inv(BRADFORD) @ np.diag(b / a) @ BRADFORD


def to_rec709(space):
    """Linear SPACE -> linear Rec. 709, SPACE's white adapted to D65 (Bradford), as an ICC
    profile's white is."""
    m = rgb_to_xyz(space)
    if tuple(space[3]) != D65:
        m = bradford(white_xyz(space[3]), white_xyz(D65)) @ m
    return np.linalg.inv(rgb_to_xyz(REC709)) @ m


def srgb_decode(v):
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(v):
    v = np.clip(np.asarray(v, dtype=np.float64), 0, 1)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def bt709_decode(v):
    """The inverse of BT.709's OETF (H.273 transfer 1)."""
    v = np.asarray(v, dtype=np.float64)
    return np.where(v < 0.081, v / 4.5, ((v + 0.099) / 1.099) ** (1 / 0.45))


def _s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def _tag_xyz(xyz):
    return b"XYZ \0\0\0\0" + b"".join(_s15(c) for c in xyz)


def _tag_desc(text):
    u = text.encode("utf-16-be")
    return b"mluc\0\0\0\0" + struct.pack(">II2s2sII", 1, 12, b"en", b"US", len(u), 28) + u


def tag_curve_srgb():
    """A 'para' sRGB curve (ICC function type 3)."""
    params = (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    return b"para\0\0\0\0" + struct.pack(">HH", 3, 0) + b"".join(_s15(p) for p in params)


def tag_curve_gamma(g):
    """A 'curv' pure power (u8Fixed8 exponent)."""
    return b"curv\0\0\0\0" + struct.pack(">IH", 1, int(round(g * 256))) + b"\0\0"


def tag_curve_table(fn, n):
    """A 'curv' of N samples of FN (encoded in [0, 1] -> linear)."""
    x = np.linspace(0, 1, n)
    t = np.round(np.clip(fn(x), 0, 1) * 65535).astype(">u2").tobytes()
    return b"curv\0\0\0\0" + struct.pack(">I", n) + t + (b"\0\0" if n % 2 else b"")


def profile(space=None, curve=None, grey=False, colour_space=b"RGB ", cls=b"mntr", desc="test"):
    """An ICC v4.3 profile: matrix/TRC of SPACE (colorants adapted to D50 by Bradford) with the
    tone curve tag CURVE for each channel, or grey (kTRC) with GREY."""
    curve = curve or tag_curve_srgb()
    tags = [(b"desc", _tag_desc(desc)), (b"wtpt", _tag_xyz(D50_XYZ))]
    if grey:
        tags.append((b"kTRC", curve))
        colour_space = b"GRAY"
    else:
        m = bradford(white_xyz(space[3]), D50_XYZ) @ rgb_to_xyz(space)
        for k, name in enumerate((b"rXYZ", b"gXYZ", b"bXYZ")):
            tags.append((name, _tag_xyz(m[:, k])))
        for name in (b"rTRC", b"gTRC", b"bTRC"):
            tags.append((name, curve))
    table, data = b"", b""
    start = 128 + 4 + 12 * len(tags)
    for sig, body in tags:
        table += sig + struct.pack(">II", start + len(data), len(body))
        data += body + b"\0" * (-len(body) % 4)
    size = start + len(data)
    head = struct.pack(">I4sI4s4s4s", size, b"\0\0\0\0", 0x04300000, cls, colour_space, b"XYZ ")
    head += b"\0" * 12 + b"acsp" + b"\0" * 24 + struct.pack(">I", 0)   # ... intent 0
    head += b"".join(_s15(c) for c in D50_XYZ) + b"\0" * 4 + b"\0" * 16 + b"\0" * 28
    assert len(head) == 128
    return head + struct.pack(">I", len(tags)) + table + data


def _chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def write_png(path, codes, chunks=()):
    """A PNG of CODES (H x W x 3 or H x W, uint8 or uint16) with the chunks CHUNKS ((type,
    body), before IDAT, in that order)."""
    codes = np.asarray(codes)
    h, w = codes.shape[:2]
    depth = 16 if codes.dtype == np.uint16 else 8
    colour = 2 if codes.ndim == 3 else 0
    raw = codes.astype(">u2" if depth == 16 else "u1").reshape(h, -1)
    rows = b"".join(b"\0" + r.tobytes() for r in raw)
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour,
                                                             0, 0, 0))
    for kind, body in chunks:
        out += _chunk(kind, body)
    out += _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b"")
    open(path, "wb").write(out)


def iccp(prof):
    return (b"iCCP", b"ICC Profile\0\0" + zlib.compress(prof))


def cicp(prim, tf, mc=0, full=1):
    return (b"cICP", bytes([prim, tf, mc, full]))


def gama(g):
    return (b"gAMA", struct.pack(">I", int(round(g * 100000))))


def chrm(space):
    (r, g, b, w) = space
    return (b"cHRM", b"".join(struct.pack(">II", int(round(x * 100000)), int(round(y * 100000)))
                              for x, y in (w, r, g, b)))
