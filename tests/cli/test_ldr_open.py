"""PNG and JPEG pictures opened as images (image_load_sdr, src/io/image_uhdr.c), as tev and
HDRView open them: display-referred, linear light with SDR white at 203 cd/m^2 (BT.2408), the
colour tags honoured. Checked against values computed here from sRGB's curve: an untagged
8-bit PNG (Pillow), a 16-bit PNG (pypng), a gAMA-tagged PNG (this test's own chunk) and a
flat-colour JPEG (Pillow, quality 100: one DC level, exact) each export byte for byte like an
OpenEXR of the expected linear values, and stats reads the expected luminance; broken and
truncated files are refused with the file named and no output."""
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy  # noqa: E402
htpy.need_numpy()
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
tmp = tempfile.mkdtemp(prefix="ht_ldr_open_")
WHITE = 203.0   # HT_HDR_REF_WHITE
REC709_Y = np.array([0.2126, 0.7152, 0.0722])


def srgb_decode(v):
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def run(*args):
    return subprocess.run([BIN] + list(args), capture_output=True, text=True)


def path(name):
    return os.path.join(tmp, name)


def same_export(name, linear):
    """NAME exports (CPU backend, 8-bit PNG) like an OpenEXR of LINEAR (H x W x 3 cd/m^2)."""
    htpy.write_exr(path(name + ".exr"), linear.astype(np.float32), white_luminance=1.0)
    outs = []
    for src in (name, name + ".exr"):
        r = run("export", path(src), "--backend", "cpu", "-o", path(src + ".out.png"))
        check(r.returncode == 0, "export %s: %s" % (src, r.stderr.strip()))
        outs.append(np.asarray(Image.open(path(src + ".out.png")), dtype=np.int64)
                    if r.returncode == 0 else None)
    if outs[0] is not None and outs[1] is not None:
        d = np.abs(outs[0] - outs[1]).max()
        check(d == 0, "%s: exports differ from its linear twin by %d levels" % (name, d))


def same_stats(name, linear):
    r = run("stats", path(name), "--json")
    check(r.returncode == 0, "stats %s: %s" % (name, r.stderr.strip()))
    if r.returncode != 0:
        return
    s = json.loads(r.stdout)
    y = linear @ REC709_Y
    got = (s["luminance"]["min"], s["luminance"]["max"])
    want = (y[y > 0].min(), y.max())   # stats: the smallest positive luminance
    check(np.allclose(got, want, rtol=2e-5), "%s: luminance %s, want %s" % (name, got, want))
    check(s["format"] in ("PNG", "JPEG"), "%s: format %s" % (name, s["format"]))


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def write_png_gama(p, codes, gamma):
    """An 8-bit RGB PNG of CODES with a gAMA chunk of 1/GAMMA (no sRGB, no cHRM)."""
    h, w, _ = codes.shape
    raw = b"".join(b"\0" + codes[y].astype(np.uint8).tobytes() for y in range(h))
    data = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + png_chunk(b"gAMA", struct.pack(">I", round(100000 / gamma)))
            + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))
    open(p, "wb").write(data)


levels = np.array([0, 37, 128, 200, 255])
grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(5, 25, 3)

# An untagged 8-bit PNG: sRGB, as every viewer shows it.
Image.fromarray(grid.astype(np.uint8), "RGB").save(path("grid.png"))
lin8 = WHITE * srgb_decode(grid / 255.0)
same_export("grid.png", lin8)
same_stats("grid.png", lin8)

# A 16-bit PNG (pypng writes what Pillow cannot).
import png  # noqa: E402
codes16 = np.minimum(grid * 257 + np.arange(25)[None, :, None] * 7, 65535).astype(np.int64)
with open(path("grid16.png"), "wb") as f:
    png.Writer(25, 5, greyscale=False, bitdepth=16).write(f, codes16.reshape(5, 75).tolist())
lin16 = WHITE * srgb_decode(codes16 / 65535.0)
same_export("grid16.png", lin16)
same_stats("grid16.png", lin16)

# gAMA 1/2.2 alone: a pure power curve, not sRGB's.
write_png_gama(path("gama.png"), grid, 2.2)
ling = WHITE * (grid / 255.0) ** (100000 / round(100000 / 2.2))
same_stats("gama.png", ling)
check(not np.allclose(ling, lin8, rtol=1e-3), "the gAMA case is not told apart from sRGB")

# A flat JPEG: every 8x8 block one DC level, which quality 100 keeps exactly.
flat = np.zeros((16, 32, 3), dtype=np.uint8)
flat[:, :16] = (128, 128, 128)
flat[:, 16:] = (200, 200, 200)
Image.fromarray(flat, "RGB").save(path("flat.jpg"), quality=100, subsampling=0)
back = np.asarray(Image.open(path("flat.jpg")), dtype=np.int64)
check(np.array_equal(back, flat), "Pillow's own decode of the flat JPEG is not exact")
same_stats("flat.jpg", WHITE * srgb_decode(flat / 255.0))

# A damaged JPEG found by fuzz_load: stb_image "decodes" it with rows it never writes (pixels of
# whatever memory held); libjpeg-turbo finds the damage and the file is refused.
DAMAGED_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/4QLDaHR0yMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEA"
    "PwD1j9hSJLb4c6rDCixRR3rIkaABVUM4AAHQCvRwUnPC0pSd24x/I6+J6NPD57j6NGKjGNaokkrJJTkkkloklokj/9n/"
    "2P/gABBKRklGAAEBAAABAAEAAP/hAf5odHRwOi8vbnMuYWRvYmUuY29tL3hhcC8xLjAvADx4OnhtcG1ldGEgeG1sbnM6"
    "eD0iYWRvYmU6bnM6bWV0YS8iIHg6eG1wdGs9ImhkcnRvbmUiPjxyZGY6UkRGIHhtbG5zOnJkZj0iaHR0cDovL3d3dy53"
    "My5vcmcvMTk5OS8wMi8yMi1yZGYtc3ludGF4LW5zIyI+PHJkZjpEZXNjcmlwdGlvbiByZGY6YWJvdXQ9IiIgeG1sbnM6"
    "aGRyZ209Imh0dHA6Ly9ucy5hZG9iZS5jb20vaGRyLWdhaW4tbWFwLzEuMC8iIGhkcmdtOlZlcnNpb249IjEuMCIgaGQl"
    "cmdtOkdhaW5NYXBNaW49Ii00LjExNzc2MDY2IiBoZHJnbTpHYWluTWFwTWF4PSI2LjQxNDEyMzA2IiBoZHJnbTpHYW1t"
    "YT0iMSIgaGRyZ206T2Zmc2V0U0RSPSIwLjAwMDI0NDE0MDYyNSIgaGRyZ206T2Zmc2V0SERSPSIwLjAwMDI0NDE0MDYy"
    "NSIgaGRyZ206SERSQ2FwYWNpdHlNaW49IjAiIGhkcmfV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/"
    "APWP2FIktvhzqsMKLFFHesiRoAFVQzgAAdAK9HBSc8LSlJ3bjH8jr4no08PnuPo0YqMY1qiSSsklOSSSWiSWiSP/2f/Y"
    "/+AAEEpGSUYAAQEAAAEAAQAA/+EB/mh0dHA6Ly9ucy5hZG9iZS5jb20veGFwLzEuMC8APHg6eG1wbWV0YSB4bWxuczp4"
    "PSJhZG9iZTpuczptZXRhLyIgeDp4bXB0az0iaGRydG9uZSI+PHIBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB4gEBAQER"
    "AQEBAf/AAAsIAAMABQEBEQD/xAAfAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgv/xAC1EAACAQMDAgQDBQUEBAAA"
    "AX0BAgMABBEFEiExQQYTUWEHInEUMoGRoQgjQrHBFVLR8CQzYnKCCQoWFxgZGiUmJygpKjTRNjc4OTpDREVGR0hJSlNU"
    "VVZXWFlaY2RlZmdoaWpzdHV2d3h5eoOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU"
    "1dbX2Nna4eLj5OXm5+jp6vHy8/T19vf4+fr/2gAIAQEAAD8At/s167qnw9+N3/BQf4c+BZ4/CHgL4c/t7/tX/D/wF4P8"
    "O2llpHh3wh4I8EftD/Fvwp4Q8KeHtJsreGz0rQfDXhrR9K0PRdMtIo7XT9M0+1tLeNIoUUf/2Q==")
# Broken files: refused with the file named, no output left.
good = open(path("grid.png"), "rb").read()
open(path("trunc.png"), "wb").write(good[:len(good) // 2])
open(path("trunc.jpg"), "wb").write(open(path("flat.jpg"), "rb").read()[:200])
open(path("head.png"), "wb").write(good[:16])
open(path("damaged.jpg"), "wb").write(DAMAGED_JPEG)
for name in ("trunc.png", "trunc.jpg", "head.png", "damaged.jpg"):
    out = path(name + ".out.png")
    r = run("export", path(name), "-o", out)
    check(r.returncode != 0 and path(name) in r.stderr and
          ("unreadable" in r.stderr or "damaged JPEG" in r.stderr),
          "%s: exit %d, %r" % (name, r.returncode, r.stderr.strip()))
    check(not os.path.exists(out), "%s: an output was written" % name)

htpy.finish("test_ldr_open")
