"""Helpers of the Python CLI tests: a Python with numpy (re-executing under Debian's when the
one CMake found lacks it), and readers and writers of small HDR files for numpy."""
import os, shutil, struct, subprocess, sys, tempfile


def need_numpy():
    """Imports numpy, or re-runs the script under /usr/bin/python3, or exits 77 (skip)."""
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    p = "/usr/bin/python3"
    if os.path.exists(p) and os.path.realpath(p) != os.path.realpath(sys.executable) and \
            subprocess.run([p, "-c", "import numpy"], capture_output=True).returncode == 0:
        os.execv(p, [p] + sys.argv)
    print("skipped: python3 with numpy (scripts/setup)")
    sys.exit(77)


failures = []


def check(cond, msg):
    """Records a failure (printed on stderr); the test ends with finish()."""
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, file=sys.stderr)


def finish(name):
    print(name + ":", "FAILED" if failures else "ok")
    sys.exit(1 if failures else 0)


def run_tool(*cmd):
    """Runs an encoder; False (a failure recorded) when it is missing or fails: scripts/setup
    installs every tool the tests use, so a missing one is a failure, not a skip."""
    if not shutil.which(cmd[0]):
        check(False, "%s is not installed (scripts/setup)" % cmd[0])
        return False
    r = subprocess.run(cmd, capture_output=True, text=True)
    check(r.returncode == 0, "%s failed: %s" % (" ".join(cmd), r.stderr[-300:]))
    return r.returncode == 0


def ocio_context():
    """The program, the bundled OCIO config, a temporary folder and an environment without
    $OCIO (so the bundled config is the default): what every OCIO test starts from."""
    env = dict(os.environ)
    env.pop("OCIO", None)
    return (os.environ["HT_BIN"],
            os.path.join(os.environ["HT_SOURCE_DIR"], "assets", "ocio", "config.ocio"),
            tempfile.mkdtemp(), env)


def samples_or_skip():
    """../shared/exr-samples (HT_SHARED), or exit 77 (skip) when it is not there."""
    samples = os.path.join(os.environ.get("HT_SHARED", ""), "exr-samples")
    if not os.path.isdir(samples):
        print("skipped: no", samples)
        sys.exit(77)
    return samples


def read_hdr(path):
    """A Radiance picture (new-style RLE or flat scanlines) as float32 H x W x 3, decoded
    m * 2^(e - 136) as hdrtone's loader does by default, the EXPOSURE lines not divided out;
    and the product of its EXPOSURE lines."""
    import numpy as np
    data = open(path, "rb").read()
    pos, exposure = 0, 1.0
    while True:
        end = data.index(b"\n", pos)
        line = data[pos:end].decode("latin-1")
        pos = end + 1
        if line.startswith("EXPOSURE="):
            exposure *= float(line[9:])
        if line == "":
            break
    end = data.index(b"\n", pos)
    _, h, _, w = data[pos:end].split()
    h, w, pos = int(h), int(w), end + 1
    rgbe = np.zeros((h, w, 4), np.uint8)
    for y in range(h):
        if data[pos] == 2 and data[pos + 1] == 2 and 8 <= w < 32768:
            pos += 4
            for c in range(4):
                x = 0
                while x < w:
                    n = data[pos]
                    if n > 128:
                        rgbe[y, x:x + n - 128, c] = data[pos + 1]
                        x, pos = x + n - 128, pos + 2
                    else:
                        rgbe[y, x:x + n, c] = list(data[pos + 1:pos + 1 + n])
                        x, pos = x + n, pos + 1 + n
        else:
            rgbe[y] = np.frombuffer(data[pos:pos + 4 * w], np.uint8).reshape(w, 4)
            pos += 4 * w
    e = rgbe[..., 3].astype(np.int32)
    scale = np.where(e > 0, np.ldexp(1.0, e - 136), 0.0)
    return (rgbe[..., :3] * scale[..., None]).astype(np.float32), exposure


def write_hdr(path, rgb, exposures=()):
    """A flat (uncompressed) Radiance picture of float RGB H x W x 3, one EXPOSURE line per
    value of EXPOSURES."""
    import numpy as np
    h, w, _ = rgb.shape
    out = bytearray(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n")
    for e in exposures:
        out += b"EXPOSURE=%g\n" % e
    out += b"\n-Y %d +X %d\n" % (h, w)
    for y in range(h):
        for x in range(w):
            v = float(max(rgb[y, x]))
            if v <= 1e-32:
                out += bytes(4)
                continue
            m, ex = np.frexp(v)
            f = m * 256.0 / v
            out += bytes([int(rgb[y, x, c] * f) for c in range(3)] + [int(ex) + 128])
    open(path, "wb").write(out)


def _attr(name, typ, value):
    return name.encode() + b"\0" + typ.encode() + b"\0" + struct.pack("<i", len(value)) + value


def write_exr(path, rgb, white_luminance=None, chromaticities=None):
    """An uncompressed scanline OpenEXR of float R, G, B (H x W x 3), with a whiteLuminance
    attribute and chromaticities ((x, y) of R, G, B, white) when given."""
    import numpy as np
    h, w, _ = rgb.shape
    chans = b"".join(c + b"\0" + struct.pack("<iBBBBii", 2, 0, 0, 0, 0, 1, 1)
                     for c in (b"B", b"G", b"R"))
    box = struct.pack("<iiii", 0, 0, w - 1, h - 1)
    head = (_attr("channels", "chlist", chans + b"\0") + _attr("compression", "compression", b"\0")
            + _attr("dataWindow", "box2i", box) + _attr("displayWindow", "box2i", box)
            + _attr("lineOrder", "lineOrder", b"\0")
            + _attr("pixelAspectRatio", "float", struct.pack("<f", 1))
            + _attr("screenWindowCenter", "v2f", struct.pack("<ff", 0, 0))
            + _attr("screenWindowWidth", "float", struct.pack("<f", 1)))
    if white_luminance is not None:
        head += _attr("whiteLuminance", "float", struct.pack("<f", white_luminance))
    if chromaticities is not None:
        head += _attr("chromaticities", "chromaticities",
                      struct.pack("<8f", *[v for xy in chromaticities for v in xy]))
    start = 8 + len(head) + 1 + 8 * h
    lines, offsets = b"", []
    for y in range(h):
        px = b"".join(rgb[y, :, c].astype("<f4").tobytes() for c in (2, 1, 0))
        offsets.append(start + len(lines))
        lines += struct.pack("<ii", y, len(px)) + px
    data = struct.pack("<ii", 20000630, 2) + head + b"\0"
    data += b"".join(struct.pack("<Q", o) for o in offsets) + lines
    open(path, "wb").write(data)


def read_exr_rle(path):
    """A single-part scanline OpenEXR of half channels, RLE or uncompressed, as a dict of
    float32 H x W arrays by channel name."""
    import numpy as np
    d = open(path, "rb").read()
    pos, attrs = 8, {}
    while d[pos] != 0:
        n = d.index(b"\0", pos)
        name = d[pos:n].decode()
        t = d.index(b"\0", n + 1)
        size = struct.unpack_from("<i", d, t + 1)[0]
        attrs[name] = d[t + 5:t + 5 + size]
        pos = t + 5 + size
    pos += 1
    x0, y0, x1, y1 = struct.unpack("<iiii", attrs["dataWindow"])
    w, h = x1 - x0 + 1, y1 - y0 + 1
    names, c = [], attrs["channels"]
    while c[0] != 0:
        n = c.index(b"\0")
        names.append(c[:n].decode())
        c = c[n + 1 + 16:]
    comp = attrs["compression"][0]
    offsets = struct.unpack_from("<%dQ" % h, d, pos)
    out = {n: np.zeros((h, w), np.float32) for n in names}
    for off in offsets:
        y, size = struct.unpack_from("<ii", d, off)
        raw = d[off + 8:off + 8 + size]
        full = 2 * w * len(names)
        if comp == 1 and size < full:
            raw = _unrle(raw, full)
        elif comp not in (0, 1):
            raise ValueError("compression %d" % comp)
        for k, n in enumerate(names):
            out[n][y - y0] = np.frombuffer(raw[2 * w * k:2 * w * (k + 1)], "<f2")
    return out


def _unrle(src, n):
    """OpenEXR's RLE: runs and literals, then the predictor and the byte interleave undone."""
    t, i = bytearray(), 0
    while i < len(src):
        c = struct.unpack_from("b", src, i)[0]
        if c < 0:
            t += src[i + 1:i + 1 - c]
            i += 1 - c
        else:
            t += bytes([src[i + 1]]) * (c + 1)
            i += 2
    for k in range(1, len(t)):
        t[k] = (t[k - 1] + t[k] - 128) & 0xff
    half = (n + 1) // 2
    out = bytearray(n)
    out[0::2] = t[:half]
    out[1::2] = t[half:]
    return bytes(out)


def png_codes(path):
    """The samples of a PNG as integers (H x W x channels), 16-bit ones whole (Pillow would
    reduce them to 8 bits): Debian's python3-png."""
    import numpy as np
    import png
    w, h, rows, info = png.Reader(path).asDirect()
    return np.vstack([np.asarray(r, dtype=np.int64) for r in rows]).reshape(
        h, w, info["planes"])


def pq_decode(e):
    """SMPTE ST 2084's EOTF: signal E in [0, 1] to cd/m^2."""
    import numpy as np
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    p = np.asarray(e, dtype=np.float64) ** (1 / m2)
    return 10000 * (np.maximum(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1)


def pq_step(codes):
    """The luminance between a 16-bit PQ code and the next: one 16-bit step, cd/m^2."""
    return pq_decode((codes + 1) / 65535) - pq_decode(codes / 65535)


def hlg_decode(e, peak):
    """BT.2100 HLG: signal E (H x W x 3 in [0, 1]) to display light in cd/m^2 (the inverse
    OETF, then the OOTF with the system gamma of a display of nominal peak PEAK, BT.2020's
    luminance weights; black 0)."""
    import numpy as np
    a, b = 0.17883277, 1 - 4 * 0.17883277
    c = 0.5 - a * np.log(4 * a)
    s = np.where(e <= 0.5, e * e / 3, (np.exp((e - c) / a) + b) / 12)
    gamma = 1.2 + 0.42 * np.log10(peak / 1000)
    ys = s @ np.array([0.2627, 0.6780, 0.0593])
    return peak * s * (ys ** (gamma - 1))[..., None]
