"""The file's colour space, honoured (docs/colour.md): one picture converted pixel for pixel by
OpenColorIO's own builtin transforms (PyOpenColorIO, the independent reference) into ACEScg
(with adoptedNeutral), CIE XYZ (absolute), Rec. 2020 and P3-D65, written by OpenEXR's C++
library with those chromaticities (tests/tools/exr_colour.cpp), must export as the original
does — in the exposure view and tone-mapped, on the CPU and the GPU; the display spaces must
equal OCIO's display transforms; degenerate chromaticities are refused."""
import atexit, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy  # noqa: E402

htpy.need_numpy()
import numpy as np  # noqa: E402

try:
    import PyOpenColorIO as ocio
    from PIL import Image
except ImportError:
    print("skipped: PyOpenColorIO and PIL (scripts/setup)")
    sys.exit(77)

BIN = os.environ["HT_BIN"]
WRITER = os.environ.get("HT_EXR_COLOUR")
if not WRITER:
    print("skipped: no OpenEXR C++ library (HT_EXR_COLOUR)")
    sys.exit(77)
check = htpy.check
tmp = tempfile.mkdtemp(prefix="ht_colour_")
atexit.register(shutil.rmtree, tmp, True)
AP1 = [0.713, 0.293, 0.165, 0.830, 0.128, 0.044, 0.32168, 0.33767]
REC2020 = [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290]
P3D65 = [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290]
REC709 = [0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290]
XYZ = [1, 0, 0, 1, 0, 0, 1 / 3, 1 / 3]


def ocio_apply(name, rgb, inverse=False):
    """RGB (..., 3) through OCIO's builtin transform NAME (its CPU processor)."""
    t = ocio.BuiltinTransform(name)
    if inverse:
        t.setDirection(ocio.TRANSFORM_DIR_INVERSE)
    p = ocio.Config.CreateRaw().getProcessor(t).getDefaultCPUProcessor()
    a = np.ascontiguousarray(rgb, np.float32).reshape(-1, 3).copy()
    p.applyRGB(a)
    return a.reshape(rgb.shape)


def srgb_encode(v):
    v = np.clip(v, 0, 1)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def pattern():
    """48 x 32 linear Rec. 709: hues across, saturation and brightness down, a grey ramp,
    inside the Rec. 709 gamut (so that every conversion comes back unclipped)."""
    w, h = 48, 32
    x = np.arange(w) / w
    y = np.arange(h)[:, None] / (h - 1)
    hue = np.broadcast_to(x, (h, w)) * 6
    sat = np.broadcast_to(0.15 + 0.8 * (y % 0.25) * 4, (h, w))
    val = np.broadcast_to(0.02 + 0.9 * y, (h, w))
    k = lambda n: (n + hue) % 6  # noqa: E731
    f = lambda n: val - val * sat * np.clip(np.minimum(k(n), 4 - k(n)), 0, 1)  # noqa: E731
    rgb = np.stack([f(5), f(3), f(1)], axis=-1)
    rgb[-1] = np.linspace(0.001, 0.95, w)[:, None]   # a grey ramp
    return rgb.astype(np.float32)


def write_exr(name, rgb, chroma=None, adopted=None):
    path = os.path.join(tmp, name)
    args = [WRITER, path, str(rgb.shape[1]), str(rgb.shape[0])]
    args += [repr(float(c)) for c in (chroma or [])] + [repr(float(c)) for c in (adopted or [])]
    r = subprocess.run(args, input=np.ascontiguousarray(rgb, np.float32).tobytes(),
                       capture_output=True)
    assert r.returncode == 0, r.stderr.decode()
    return path


def export(inp, *opts):
    out = os.path.join(tmp, "out_%d.png" % export.n)
    export.n += 1
    r = subprocess.run([BIN, "export", inp, "-o", out] + list(opts), capture_output=True,
                       text=True)
    if r.returncode != 0:
        check(False, "export %s %s: exit %d: %s" % (inp, opts, r.returncode, r.stderr.strip()))
        return None
    return np.asarray(Image.open(out).convert("RGB")).astype(int)


export.n = 0


def compare(a, b, what, max_levels=1, share_over_1=0.0):
    if a is None or b is None:
        return
    d = np.abs(a - b)
    over = float(np.mean(d.max(axis=-1) > 1))
    print("%-58s max %d levels, %.2f %% of pixels > 1" % (what, d.max(), 100 * over))
    check(d.max() <= max_levels and over <= share_over_1,
          "%s: %d levels off at most (allowed %d), %.2f %% > 1 (allowed %.2f %%)"
          % (what, d.max(), max_levels, 100 * over, 100 * share_over_1))


rgb709 = pattern()
# The conversions, each by OCIO's own transforms.
xyz = ocio_apply("DISPLAY - CIE-XYZ-D65_to_sRGB", srgb_encode(rgb709), inverse=True)
acescg = ocio_apply("UTILITY - ACES-AP1_to_LINEAR-REC709_BFD", rgb709, inverse=True)
rec2020 = ocio_apply("DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.2020", xyz) ** 2.4
p3 = ocio_apply("DISPLAY - CIE-XYZ-D65_to_G2.6-P3-D65", xyz) ** 2.6

orig = write_exr("orig.exr", rgb709)
files = {
    "ACEScg (adoptedNeutral)": write_exr("acescg.exr", acescg, AP1, AP1[6:]),
    "CIE XYZ (absolute)": write_exr("xyz.exr", xyz, XYZ),
    "Rec. 2020": write_exr("rec2020.exr", rec2020, REC2020),
    "P3-D65": write_exr("p3.exr", p3, P3D65),
}

for backend in ("cpu", "gpu"):
    be = ["--backend", backend]
    ref_exp = export(orig, "--view", "exposure", *be)
    ref_tm = export(orig, *be)
    if ref_exp is None:
        continue
    # The original against the formula: the exposure view is sRGB(value), one level at most.
    compare(ref_exp, np.round(srgb_encode(rgb709) * 255).astype(int),
            "%s: original, exposure view vs sRGB(value)" % backend)
    for label, path in files.items():
        compare(export(path, "--view", "exposure", *be), ref_exp,
                "%s: %s, exposure view" % (backend, label))
        # Tone-mapped: the luminance of each file's own Y row drives the curve; a Bradford
        # adaptation moves Y by a fraction of a percent, so a level or two may move.
        compare(export(path, *be), ref_tm, "%s: %s, tone-mapped" % (backend, label),
                max_levels=2, share_over_1=0.02)

# The display spaces against OCIO's display transforms (gamma 2.4 for Rec. 2020).
got = export(orig, "--view", "exposure", "--display-space", "rec2020", "--backend", "cpu")
want = np.round(np.clip(ocio_apply("DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.2020", xyz), 0, 1)
                * 255).astype(int)
compare(got, want, "display rec2020 vs OCIO CIE-XYZ-D65_to_REC.1886-REC.2020")
got = export(orig, "--view", "exposure", "--display-space", "display-p3", "--backend", "gpu")
lin_p3 = np.clip(ocio_apply("DISPLAY - CIE-XYZ-D65_to_G2.6-P3-D65", xyz), 0, 1) ** 2.6
compare(got, np.round(srgb_encode(lin_p3) * 255).astype(int),
        "display display-p3 vs OCIO G2.6-P3-D65 (re-encoded sRGB)")

# --colorspace names an untagged file's space; --white adapt for ACEScg without the attribute.
untagged = write_exr("acescg_untagged.exr", acescg)
want = export(files["ACEScg (adoptedNeutral)"], "--backend", "cpu")
compare(export(untagged, "--colorspace", "acescg", "--backend", "cpu"), want,
        "--colorspace acescg on an untagged file", max_levels=0)
no_neutral = write_exr("acescg_abs.exr", acescg, AP1)
compare(export(no_neutral, "--white", "adapt", "--backend", "cpu"), want,
        "--white adapt on ACEScg without adoptedNeutral", max_levels=0)
# Without adoptedNeutral the ACES white is shown as what it is: not neutral on a D65 display.
grey = export(no_neutral, "--view", "exposure", "--backend", "cpu")
if grey is not None:
    g = grey[-1, 40]
    check(g[0] > g[2] + 2, "absolute ACEScg: the ACES white is warmer than D65 (%s)" % g)

# Out of gamut: saturated Rec. 2020 colours on an sRGB display. The rule of docs/colour.md,
# written here in numpy: to Rec. 709 (the matrix by OCIO's transforms), then, where a channel
# is negative, mixed towards the display luminance Y until the smallest is 0; then clipped.
wide = np.zeros((8, 16, 3), np.float32)
for i in range(16):
    a = i / 16 * 2 * np.pi
    wide[:, i] = 0.45 + 0.45 * np.array([np.cos(a), np.cos(a - 2.1), np.cos(a + 2.1)])
wide[4:] *= 0.3
wide_path = write_exr("wide.exr", wide, REC2020)
xyz_wide = ocio_apply("DISPLAY - CIE-XYZ-D65_to_REC.1886-REC.2020", wide ** (1 / 2.4),
                      inverse=True)
# The unclipped Rec. 709 values: XYZ -> Rec. 709 by the inverse of OCIO's XYZ of the sRGB
# display's primaries (its rows, for row vectors).
to709 = np.linalg.inv(ocio_apply("DISPLAY - CIE-XYZ-D65_to_sRGB",
                                 srgb_encode(np.eye(3, dtype=np.float32)), inverse=True))
rgb = xyz_wide @ to709
check(float(rgb.min()) < -0.05, "the wide colours are out of the sRGB gamut (min %g)" % rgb.min())
y = rgb @ np.array([0.2126390, 0.7151687, 0.0721923])
lo = rgb.min(axis=-1)
t = np.where(lo < 0, y / np.where(lo < 0, y - lo, 1), 1)[..., None]
compressed = np.where((lo < 0)[..., None], y[..., None] + t * (rgb - y[..., None]), rgb)
gap = np.abs(srgb_encode(compressed) - srgb_encode(rgb)).max() * 255
check(gap > 10, "compress and clip differ on these colours (%.1f levels)" % gap)
for rule, want_lin in (("clip", rgb), ("compress", compressed)):
    want = np.round(srgb_encode(want_lin) * 255).astype(int)
    for backend in ("cpu", "gpu"):
        compare(export(wide_path, "--view", "exposure", "--gamut", rule, "--backend", backend),
                want, "--gamut %s (%s) vs numpy" % (rule, backend))

# Degenerate chromaticities: refused, naming the file and the reason.
one = np.ones((2, 2, 3), np.float32)
for label, chroma, adopted in [
        ("collinear primaries", [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.3127, 0.329], None),
        ("a white at y = 0", REC709[:6] + [0.3127, 0.0], None),
        ("a NaN primary", [float("nan")] + REC709[1:], None),
        ("an adoptedNeutral at y = 0", REC709, [0.3, 0.0])]:
    path = write_exr("bad.exr", one, chroma, adopted)
    r = subprocess.run([BIN, "export", path, "-o", os.path.join(tmp, "bad.png"), "--backend",
                        "cpu"], capture_output=True, text=True)
    check(r.returncode == 1 and "bad.exr" in r.stderr and
          ("degenerate" in r.stderr or "adoptedNeutral" in r.stderr),
          "%s: exit %d, %r" % (label, r.returncode, r.stderr.strip()))
    check(not os.path.exists(os.path.join(tmp, "bad.png")), "%s: no output" % label)

htpy.finish("test_colour")
