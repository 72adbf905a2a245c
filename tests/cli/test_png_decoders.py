"""The PNG encoder's bytes (zlib_stripes.h, deflate_fast.h: our own deflate in stripes) read by
other decoders: for the default image (made 4K, so that it has many stripes) and the sample
photographs, the 8-bit PNG, the 16-bit SDR PNG and the PQ PNG, each decoded by pypng (Python's
zlib), ImageMagick (libpng) and, for 8 bits, Pillow (its own PNG reader), to the same samples;
a 4K PNG the same bytes on 1 and 5 threads (--jobs); and the 8-bit 4K PNG no more than 10 %
larger than zlib's level 1 of the same rows as one stream (issue 32's bound on the size)."""
import atexit, os, shutil, subprocess, sys, tempfile, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy  # noqa: E402

htpy.need_numpy()
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

HT = os.environ["HT_BIN"]
tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    htpy.check(r.returncode == 0, "%s: %s" % (" ".join(cmd), r.stderr[-300:]))
    return r.returncode == 0


def magick(path, depth):
    """The samples of PATH by ImageMagick, as H x W x 3 integers."""
    r = subprocess.run(["convert", path, "-depth", str(depth), "-endian", "MSB", "rgb:-"],
                       capture_output=True)
    htpy.check(r.returncode == 0, "convert %s failed" % path)
    w, h = Image.open(path).size
    return np.frombuffer(r.stdout, dtype=">u2" if depth == 16 else np.uint8).reshape(
        h, w, 3).astype(np.int64)


def check_png(path, depth):
    codes = htpy.png_codes(path)
    name = os.path.basename(path)
    htpy.check(codes.shape[2] == 3 and codes.max() < 1 << depth and codes.max() > 0,
               "%s: pypng read %s, max %d" % (name, codes.shape, codes.max()))
    htpy.check(np.array_equal(codes, magick(path, depth)), name + ": ImageMagick reads other samples")
    if depth == 8:
        pil = np.asarray(Image.open(path).convert("RGB"), dtype=np.int64)
        htpy.check(np.array_equal(codes, pil), name + ": Pillow reads other samples")
    return codes


def idat_rows(path):
    """The PNG's filtered rows (its IDAT chunks inflated by Python's zlib)."""
    data, at, idat = open(path, "rb").read(), 8, b""
    while at < len(data):
        n, kind = int.from_bytes(data[at:at + 4], "big"), data[at + 4:at + 8]
        idat += data[at + 8:at + 8 + n] if kind == b"IDAT" else b""
        at += 12 + n
    return zlib.decompress(idat)


inputs = [os.path.join(tmp, "4k.exr")]
run(os.environ["HT_MAKE_BENCH_EXR"], os.path.join(os.environ["HT_SOURCE_DIR"], "assets", "default.exr"),
    inputs[0], "3840", "2160", "piz")
samples = os.path.join(os.environ.get("HT_SHARED", ""), "exr-samples")
if os.path.isdir(samples):
    inputs += [os.path.join(samples, f + ".exr") for f in ("Desk", "Garden", "Cannon")]
for src in inputs:
    stem = os.path.join(tmp, os.path.splitext(os.path.basename(src))[0])
    for suffix, args, depth in (("8", [], 8), ("16", ["--depth", "16"], 16),
                                ("pq", ["--hdr", "pq"], 16)):
        out = "%s_%s.png" % (stem, suffix)
        if run(HT, "export", src, "-o", out, *args):
            check_png(out, depth)

big = os.path.join(tmp, "4k_8.png")
for suffix, args in (("8", []), ("pq", ["--hdr", "pq"])):
    one, five = (os.path.join(tmp, "4k_%s_j%d.png" % (suffix, j)) for j in (1, 5))
    run(HT, "export", inputs[0], "-o", one, "--jobs", "1", *args)
    run(HT, "export", inputs[0], "-o", five, "--jobs", "5", *args)
    htpy.check(open(one, "rb").read() == open(five, "rb").read(),
               "the 4K %s PNG differs on 1 and 5 threads" % suffix)
if os.path.exists(big):
    rows = idat_rows(big)
    level1 = len(zlib.compress(rows, 1))
    size = os.path.getsize(big)
    print("4K 8-bit PNG %d bytes, zlib level 1 of its rows %d" % (size, level1))
    htpy.check(size < 1.1 * level1, "the 4K PNG is %d bytes, over 1.1 x zlib's %d" % (size, level1))
htpy.finish("test_png_decoders")
