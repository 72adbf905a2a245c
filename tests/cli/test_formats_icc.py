"""Embedded ICC profiles of the formats read through OpenImageIO, libjxl and libheif (issue 31)
applied: TIFF (tifffile's tag 34675, ImageMagick's -profile), PSD, WebP (cwebp -metadata icc),
AVIF (avifenc --icc), HEIC (heif-enc) and JPEG XL (cjxl keeping a profile it cannot name) with
Display P3, Adobe RGB and grey gamma-1.8 profiles that this test writes itself (iccpy.py), each
decoded by hdrtone (tests/tools/imgdiff) against linear Rec. 709 computed here in numpy from the
profile's primaries and curve, not by lcms2; `stats --json` says source "icc"; a damaged profile
is refused with the file named. A missing encoder is a failure (scripts/setup installs them)."""
import atexit, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np, Image  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
import iccpy as ic  # noqa: E402
import tifffile  # noqa: E402

HT = os.environ["HT_BIN"]
DIFF = os.environ["HT_IMGDIFF"]
tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)
# A profile's colorants are s15Fixed16 numbers (test_ldr_colour: 2.8e-5 seen); OpenImageIO hands
# integer codes as floats, lcms2 converts floats: 1e-4 as for PNG.
ICC_TOL = 1e-4


def path(name):
    return os.path.join(tmp, name)


run = htpy.run_tool


def linear(space, codes, curve, scale=255.0):
    return (curve(np.asarray(codes, np.float64) / scale) @ ic.to_rec709(space).T)


def expect(name, want, tol=ICC_TOL, mean=None):
    """NAME decodes to WANT (H x W x 3 linear Rec. 709) within TOL, from its ICC profile."""
    ref = path(name + ".ref.pfm")
    with open(ref, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (want.shape[1], want.shape[0]))
        f.write(np.ascontiguousarray(want[::-1], "<f4").tobytes())
    opt = ["--mean", str(mean)] if mean is not None else []
    r = subprocess.run([DIFF, path(name), ref, "--tol", str(tol)] + opt, capture_output=True,
                       text=True)
    print("  %-12s %s" % (name, (r.stdout + r.stderr).strip()))
    htpy.check(r.returncode == 0, "%s differs from its profile's colours beyond %g" %
               (name, mean if mean is not None else tol))
    s = subprocess.run([HT, "stats", "--json", path(name)], capture_output=True, text=True)
    info = json.loads(s.stdout) if s.returncode == 0 else {}
    source = info.get("colorspace", {}).get("source")
    htpy.check(source == "icc" and "icc:description" in info.get("metadata", {}),
               "%s: colour source %s, metadata %s" % (name, source, info.get("metadata")))


LEVELS = np.array([0, 37, 128, 200, 255])
GRID = np.stack(np.meshgrid(LEVELS, LEVELS, LEVELS, indexing="ij"), -1).reshape(5, 25, 3)
P3 = ic.profile(ic.P3D65, desc="Display P3 (test)")
ADOBE_CURVE = ic.tag_curve_gamma(563 / 256)
ADOBE = ic.profile(ic.ADOBE, curve=ADOBE_CURVE, desc="Adobe RGB (test)")
for name, data in (("p3.icc", P3), ("adobe.icc", ADOBE),
                   ("srgb.icc", ic.profile(ic.REC709, desc="sRGB (test)"))):
    open(path(name), "wb").write(data)
Image.fromarray(GRID.astype(np.uint8)).save(path("p3.png"), icc_profile=P3)
want_p3 = linear(ic.P3D65, GRID, ic.srgb_decode)

print("TIFF: Display P3 16-bit (tifffile), Adobe RGB 8-bit (ImageMagick), grey gamma 1.8")
codes16 = (GRID.astype(np.uint32) * 257 - 97).clip(0, 65535).astype(np.uint16)
tifffile.imwrite(path("p3_16.tif"), codes16, photometric="rgb",
                 extratags=[(34675, 7, len(P3), P3, False)])
expect("p3_16.tif", linear(ic.P3D65, codes16, ic.srgb_decode, 65535.0))
Image.fromarray(GRID.astype(np.uint8)).save(path("src.png"))
im = shutil.which("convert-im6.q16") or "convert"
if run(im, path("src.png"), "-profile", path("srgb.icc"), "-profile", path("adobe.icc"),
       path("adobe.tif")):
    codes = tifffile.imread(path("adobe.tif"))[..., :3]
    htpy.check(not np.array_equal(codes, GRID), "ImageMagick did not convert to Adobe RGB")
    expect("adobe.tif", linear(ic.ADOBE, codes, lambda v: v ** (563 / 256)))
ramp = np.arange(0, 256, 8, dtype=np.uint8)[None, :].repeat(4, 0)
grey = ic.profile(grey=True, curve=ic.tag_curve_gamma(1.8), desc="grey 1.8 (test)")
tifffile.imwrite(path("grey.tif"), ramp, photometric="minisblack",
                 extratags=[(34675, 7, len(grey), grey, False)])
expect("grey.tif", np.repeat((ramp[..., None] / 255.0) ** (round(1.8 * 256) / 256), 3, 2))

print("PSD (ImageMagick), WebP (cwebp), AVIF (avifenc), HEIC (heif-enc), JPEG XL (cjxl)")
if run(im, path("p3.png"), "-compress", "RLE", path("p3.psd")):
    expect("p3.psd", want_p3)
if run("cwebp", "-quiet", "-lossless", "-metadata", "icc", path("p3.png"), "-o", path("p3.webp")):
    expect("p3.webp", want_p3)
# avifenc writes CICP 2/2 ("unspecified") beside the profile: the profile rules.
if run("avifenc", "-l", "--icc", path("p3.icc"), path("p3.png"), path("p3.avif")):
    expect("p3.avif", want_p3)
# heif-enc -L is not lossless for RGB (x265 codes YCbCr: codes off by up to 145 here): the
# codes heif-convert decodes, converted here.
if run("heif-enc", "-L", "-o", path("p3.heic"), path("p3.png")) and \
        run("heif-convert", path("p3.heic"), path("p3_heic.png")):
    codes = np.asarray(Image.open(path("p3_heic.png")).convert("RGB"))
    expect("p3.heic", linear(ic.P3D65, codes, ic.srgb_decode))
# A curve given as a table: no encoding JPEG XL can name, so cjxl keeps the profile itself.
table = ic.profile(ic.P3D65, curve=ic.tag_curve_table(ic.srgb_decode, 4096), desc="P3 table")
Image.fromarray(GRID.astype(np.uint8)).save(path("p3t.png"), icc_profile=table)
if run("cjxl", "--quiet", "-d", "0", path("p3t.png"), path("p3t.jxl")):
    expect("p3t.jxl", want_p3, 2e-4)  # the table's 16-bit samples, interpolated

print("a damaged profile: refused with the file named")
bad = P3[:128] + bytes(range(256)) * 2
tifffile.imwrite(path("bad_icc.tif"), codes16, photometric="rgb",
                 extratags=[(34675, 7, len(bad), bad, False)])
r = subprocess.run([HT, "stats", path("bad_icc.tif")], capture_output=True, text=True)
htpy.check(r.returncode == 1 and path("bad_icc.tif") in r.stderr and "ICC" in r.stderr,
           "bad_icc.tif: rc %d %s" % (r.returncode, r.stderr.strip()))
print("  bad_icc.tif  " + r.stderr.strip()[-100:])
htpy.finish("test_formats_icc")
