"""The formats read through OpenImageIO, libjxl and libheif (issue 31), each from files that independent
encoders (oiiotool, ImageMagick, ffmpeg, cjxl, cwebp, avifenc, heif-enc, tifffile) made from one
picture: every file must load to the picture's values (a PFM reference written here, compared by
tests/tools/imgdiff): exactly for float and half, to float rounding for lossless integer files
(their sRGB or the file's own transfer decoded), within the measured error of each lossy coder.
Then each format's files cut short, damaged and over --max-pixels: refused (exit 1, the file
named), or for damaged bytes that a format cannot detect, loaded, but never a crash. A camera
DNG, written here with tifffile, against libraw's own dcraw_emu (linear, camera white balance,
camera matrix to linear sRGB, within the half floats OpenImageIO hands it in); a PQ JPEG XL;
the desktop entry's MIME types. A tool that is missing (scripts/setup installs them all) is a
failure, not a skip."""
import atexit, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy  # noqa: E402

htpy.need_numpy()
import numpy as np  # noqa: E402

H, W = 48, 64
HT = os.environ["HT_BIN"]
DIFF = os.environ["HT_IMGDIFF"]
tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)


def path(name):
    return os.path.join(tmp, name)


def write_pfm(name, rgb):
    with open(path(name), "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (rgb.shape[1], rgb.shape[0]))
        f.write(np.ascontiguousarray(rgb[::-1], "<f4").tobytes())


def write_ppm(name, v, maxval):
    with open(path(name), "wb") as f:
        f.write(b"P6\n%d %d\n%d\n" % (v.shape[1], v.shape[0], maxval))
        f.write(v.astype(">u2" if maxval > 255 else "u1").tobytes())


def srgb_eotf(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_oetf(v):
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


run = htpy.run_tool


def compare(name, ref, tol=0.0, rel=0.0, mean=None):
    opt = ["--mean", str(mean)] if mean is not None else []
    r = subprocess.run([DIFF, path(name), path(ref), "--tol", str(tol), "--rel", str(rel)] + opt,
                       capture_output=True, text=True)
    print("  %-18s vs %-10s %s" % (name, ref, (r.stdout + r.stderr).strip()))
    htpy.check(r.returncode == 0, "%s differs from %s beyond %s" %
               (name, ref,
                "a mean of %g" % mean if mean is not None else "%g + %g|v|" % (tol, rel)))


# The picture: smooth ramps, a period-7 pattern (a flip or swap shows), HDR values above 1.
y, x = np.mgrid[0:H, 0:W].astype(np.float32)
img = np.stack([x / (W - 1), y / (H - 1), ((x + 2 * y) % 7) / 6.0], -1).astype(np.float32)
img[10:20, 40:50] = [4.0, 2.0, 0.5]
img[30:34, 5:9] = [0.001, 0.02, 0.3]
s16 = np.round(srgb_oetf(np.clip(img, 0, 1)) * 65535).astype(np.uint16)
s8 = np.round(srgb_oetf(np.clip(img, 0, 1)) * 255).astype(np.uint8)
s10 = (s16 >> 6).astype(np.float64)  # ffmpeg's 16 -> 10 bits: the top bits
write_pfm("src.pfm", img)
write_pfm("ref_half.pfm", img.astype(np.float16).astype(np.float32))
write_pfm("ref_s8.pfm", srgb_eotf(s8 / 255.0).astype(np.float32))
write_pfm("ref_s16.pfm", srgb_eotf(s16 / 65535.0).astype(np.float32))
write_pfm("ref_l10.pfm", (s10 / 1023).astype(np.float32))
write_ppm("s8.ppm", s8, 255)
write_ppm("s16.ppm", s16, 65535)
import png  # noqa: E402  (python3-png: 16-bit PNG without a resampling library in between)
for name, v, bits in (("s8.png", s8, 8), ("s16.png", s16, 16)):
    with open(path(name), "wb") as f:
        png.Writer(W, H, greyscale=False, bitdepth=bits).write(f, v.reshape(H, W * 3).tolist())

print("lossless and float")
import tifffile  # noqa: E402
tifffile.imwrite(path("tf_f32.tif"), img, photometric="rgb", compression="zlib")
tifffile.imwrite(path("tf_f16.tif"), img.astype(np.float16), photometric="rgb")
tifffile.imwrite(path("tf_u16.tif"), s16, photometric="rgb", compression="zlib")
tifffile.imwrite(path("tf_pages.tif"), np.stack([s8, 255 - s8]), photometric="rgb")
F = 2e-6  # float rounding of the sRGB decoding (float powf against numpy's double)
cases = [
    (("oiiotool", path("src.pfm"), "-d", "float", "-o", path("oi_f32.tif")), "src.pfm", 0, 0),
    (("oiiotool", path("s16.png"), "-d", "uint16", "--compression", "lzw", "-o",
      path("oi_u16.tif")), "ref_s16.pfm", 0, F),
    (("convert", path("s8.png"), path("im_u8.tif")), "ref_s8.pfm", 0, F),
    (("ffmpeg", "-v", "error", "-y", "-i", path("s16.png"), "-pix_fmt", "rgb48le",
      path("ff_u16.tif")), "ref_s16.pfm", 0, F),
    # ffmpeg tags its DPX transfer Linear; OpenImageIO widens 10-bit codes by a shift (1023 ->
    # 65472), so values sit up to one 10-bit code low: the format's precision.
    (("ffmpeg", "-v", "error", "-y", "-i", path("s16.png"), "-pix_fmt", "gbrp10le",
      path("ff_10.dpx")), "ref_l10.pfm", 1.0 / 1023, 0),
    (("oiiotool", path("s16.png"), "-d", "uint16", "-o", path("oi_u16.dpx")), "ref_s16.pfm", 0,
     F),
    # ImageMagick's Cineon is 10-bit printing density (0.77 % of linear light a code): hdrtone's
    # Kodak curve (black 95, white 685, gamma 0.6) gives its values within 2.3 % (measured; up
    # to 3 codes at the top, where ImageMagick's curve parts from Kodak's) and 2.6e-4 in the dark.
    (("convert", path("s8.png"), path("im.cin")), "ref_s8.pfm", 3e-4, 0.025),
    (("convert", path("s8.png"), "-compress", "RLE", path("im.psd")), "ref_s8.pfm", 0, F),
    (("cwebp", "-quiet", "-lossless", path("s8.png"), "-o", path("cw.webp")), "ref_s8.pfm", 0,
     F),
    (("convert", path("s8.png"), "-define", "dds:compression=none", path("im.dds")),
     "ref_s8.pfm", 0, F),
    (("oiiotool", path("s8.png"), "-o", path("oi.tga")), "ref_s8.pfm", 0, F),
    # ImageMagick 6.9.11 writes TGA rows top first under a bottom-left origin (PIL reads its
    # files upside down too): ffmpeg's TGA instead.
    (("ffmpeg", "-v", "error", "-y", "-i", path("s8.png"), path("ff.tga")), "ref_s8.pfm", 0, F),
    (("ffmpeg", "-v", "error", "-y", "-i", path("s8.png"), path("ff.bmp")), "ref_s8.pfm", 0, F),
    (("convert", path("s8.png"), path("im.bmp")), "ref_s8.pfm", 0, F),
    (("oiiotool", path("s8.png"), "-o", path("oi.jp2")), "ref_s8.pfm", 0, F),
    (("cjxl", "-d", "0", "-x", "color_space=RGB_D65_SRG_Rel_Lin", path("src.pfm"),
      path("cj_f32.jxl")), "src.pfm", 0, 0),
    (("cjxl", "-d", "0", path("s8.png"), path("cj_u8.jxl")), "ref_s8.pfm", 0, F),
    (("cjxl", "-d", "0", path("s16.png"), path("cj_u16.jxl")), "ref_s16.pfm", 0, F),
]
for cmd, ref, tol, rel in cases:
    if run(*cmd):
        compare(os.path.basename(cmd[-1]), ref, tol, rel)
# OpenImageIO 2.4 reads a 16-bit PNM's 65535 as 65534: one code of the format's precision.
compare("s16.ppm", "ref_s16.pfm", 4e-5, 0)
compare("s8.ppm", "ref_s8.pfm", 0, F)
compare("tf_f32.tif", "src.pfm")
compare("tf_f16.tif", "ref_half.pfm")
compare("tf_u16.tif", "ref_s16.pfm", 0, F)

print("lossy: the mean error on a smooth picture (limits: about twice the error seen)")
smooth = np.round(srgb_oetf(np.clip(np.stack(
    [x / (W - 1), y / (H - 1), (x + y) / (W + H - 2)], -1), 0, 1)) * 255).astype(np.uint8)
write_pfm("ref_smooth.pfm", srgb_eotf(smooth / 255.0).astype(np.float32))
with open(path("smooth.png"), "wb") as f:
    png.Writer(W, H, greyscale=False, bitdepth=8).write(f, smooth.reshape(H, W * 3).tolist())
lossy = [
    (("cwebp", "-quiet", "-q", "95", path("smooth.png"), "-o", path("cw_q95.webp")), 0.015),
    (("avifenc", "-s", "8", "--min", "10", "--max", "10", path("smooth.png"), path("ae.avif")),
     0.012),
    (("heif-enc", "-q", "95", path("smooth.png"), "-o", path("he.heic")), 0.016),
    (("cjxl", "-d", "1", path("smooth.png"), path("cj_d1.jxl")), 0.01),
]
for cmd, tol in lossy:
    if run(*cmd):
        compare(os.path.basename(cmd[-1]), "ref_smooth.pfm", mean=tol)

print("JPEG XL's colour encoding: Rec. 2100 primaries, PQ, linearised to 10,000 cd/m^2 units")
nits = img * 100.0
e = (nits / 10000.0) ** 0.1593017578125
write_pfm("pq_coded.pfm", ((0.8359375 + 18.8515625 * e) / (1 + 18.6875 * e)) ** 78.84375)
write_pfm("ref_pq.pfm", (nits / 10000.0).astype(np.float32))
if run("cjxl", "-d", "0", "-x", "color_space=RGB_D65_202_Rel_PeQ", path("pq_coded.pfm"),
       path("cj_pq.jxl")):
    compare("cj_pq.jxl", "ref_pq.pfm", 1e-9, 2e-4)  # float powf against numpy's double
    r = subprocess.run([HT, "stats", "--json", path("cj_pq.jxl")], capture_output=True,
                       text=True)
    meta = json.loads(r.stdout)["metadata"] if r.returncode == 0 else {}
    htpy.check(meta.get("jxl:transfer") == "PQ" and
               meta.get("jxl:primaries", "").startswith("R 0.708,0.292 G 0.17,0.797"),
               "cj_pq.jxl's colour encoding: %s" % meta)

print("a camera DNG (tifffile: RGGB mosaic, ColorMatrix1, AsShotNeutral) against dcraw_emu")
cfa = np.zeros((H, W), np.uint16)
cfa[0::2, 0::2] = img[0::2, 0::2, 0].clip(0, 1) * 20000
cfa[0::2, 1::2] = img[0::2, 1::2, 1].clip(0, 1) * 20000
cfa[1::2, 0::2] = img[1::2, 0::2, 1].clip(0, 1) * 20000
cfa[1::2, 1::2] = img[1::2, 1::2, 2].clip(0, 1) * 20000
xyz_to_srgb = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
srational = [v for m in xyz_to_srgb for v in (int(round(m * 10000)), 10000)]
tifffile.imwrite(path("cam.dng"), cfa, photometric=32803, extratags=[
    (33421, "H", 2, (2, 2), False), (33422, "B", 4, (0, 1, 1, 2), False),
    (50706, "B", 4, (1, 4, 0, 0), False), (50708, "s", 0, "hdrtone test camera", False),
    (50717, "I", 1, (65535,), False), (50714, "I", 1, (0,), False),
    (50721, 10, 9, srational, False), (50728, 5, 3, (1, 1, 1, 1, 1, 1), False),
    (50778, "H", 1, (21,), False), (271, "s", 0, "hdrtone", False), (272, "s", 0, "Test", False)])
# ColorMatrix1 as 9 SRATIONALs and AsShotNeutral as 3 RATIONALs, as the DNG specification types
# them: written as 18 and 6 LONGs (as this test did until 28 Nov 2026), libraw 0.20 skips the
# matrix and then builds its colour transform from an uninitialised stack array (valgrind,
# LibRaw::cam_xyz_coeff), so hdrtone and dcraw_emu agreed only while that stack happened to hold
# the same bytes: ~50x apart under ASan.
if run("dcraw_emu", "-4", "-T", "-w", path("cam.dng")):  # linear 16-bit, camera WB, sRGB
    raw = tifffile.imread(path("cam.dng.tiff")).astype(np.float32)[..., :3] / 65535
    write_pfm("ref_cam.pfm", raw)
    compare("cam.dng", "ref_cam.pfm", 1e-5, 1e-3)  # OpenImageIO hands libraw's output as half
    r = subprocess.run([HT, "stats", "--json", path("cam.dng")], capture_output=True, text=True)
    meta = json.loads(r.stdout)["metadata"] if r.returncode == 0 else {}
    htpy.check(meta.get("Make") == "hdrtone" and meta.get("Model") == "Test" and
               "ExposureTime" in meta, "cam.dng's camera metadata: %s" % meta)

print("compare and a sequence pattern take them: TIFF against JPEG XL, TIFF frames exported")
r = subprocess.run([HT, "compare", path("oi_f32.tif"), path("cj_f32.jxl")], capture_output=True,
                   text=True)
print("  " + r.stdout.strip()[-60:])
htpy.check(r.returncode == 0 and "MSE 0 " in r.stdout, "compare TIFF JPEG XL: %d %s %s" %
           (r.returncode, r.stdout.strip(), r.stderr.strip()))
for k in (1, 2):
    shutil.copy(path("oi_f32.tif"), path("frame.%04d.tif" % k))
r = subprocess.run([HT, "export", path("frame.%04d.tif"), "-o", path("frames") + "/"],
                   capture_output=True, text=True)
got = sorted(os.listdir(path("frames"))) if os.path.isdir(path("frames")) else []
htpy.check(r.returncode == 0 and got == ["frame.0001.png", "frame.0002.png"],
           "export of a TIFF sequence: %d %s %s" % (r.returncode, got, r.stderr.strip()))

print("the desktop entry opens every format hdrtone --formats lists")
listing = subprocess.run([HT, "--formats"], capture_output=True, text=True).stdout.split("\n")
mime = listing[listing.index("MIME types (the desktop entry's):") + 1].strip()
desktop = open(os.path.join(os.environ["HT_SOURCE_DIR"], "packaging", "hdrtone.desktop")).read()
htpy.check("MimeType=" + mime + "\n" in desktop, "desktop entry's MimeType is not " + mime)


def stats(name, *opts):
    return subprocess.run([HT, "stats", path(name)] + list(opts), capture_output=True, text=True)


print("cut short, damaged, too large")
one_per_format = ["oi_f32.tif", "oi_u16.dpx", "im.cin", "im.psd", "cw.webp", "he.heic",
                  "ae.avif", "oi.jp2", "im.dds", "ff.tga", "im.bmp", "s8.ppm", "cj_f32.jxl",
                  "cj_d1.jxl", "cam.dng"]
rng = np.random.default_rng(31)
for name in one_per_format:
    data = open(path(name), "rb").read()
    r = stats(name, "--max-pixels", "1000")
    htpy.check(r.returncode == 1 and path(name) in r.stderr and "--max-pixels" in r.stderr,
               "%s over --max-pixels: rc %d %s" % (name, r.returncode, r.stderr.strip()))
    for cut in (len(data) // 2, 12):
        open(path("cut_" + name), "wb").write(data[:cut])
        r = stats("cut_" + name)
        htpy.check(r.returncode == 1 and path("cut_" + name) in r.stderr,
                   "%s cut to %d bytes: rc %d %s" % (name, cut, r.returncode, r.stderr.strip()))
    print("  %-12s cut short: %s" % (name, r.stderr.strip()[-90:]))
    for k in range(5):  # damaged: refused or (bytes a format cannot check) loaded, no crash
        b = bytearray(data)
        at = int(rng.integers(0, len(b)))
        n = len(b[at:at + 1 + 4 * k])
        b[at:at + n] = bytes(rng.integers(0, 256, n).tolist())
        open(path("bad_" + name), "wb").write(bytes(b))
        r = stats("bad_" + name)
        htpy.check(r.returncode in (0, 1) and
                   (r.returncode == 0 or path("bad_" + name) in r.stderr),
                   "%s damaged: rc %d %s" % (name, r.returncode, r.stderr.strip()))

htpy.finish("test_formats_encoders")
