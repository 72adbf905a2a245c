"""The pixel inspector of an image in another colour space, in a real window under Xvfb: with
Desk.exr read as CIE XYZ (--colorspace xyz), the Pixel section shows the file's values, the
same values in the display's primaries (checked against OpenColorIO's XYZ -> sRGB display
transform, an independent reference) and the display bytes, which equal the window's pixel
under the cursor (1:1, MSAA 1)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

try:
    import PyOpenColorIO as ocio
except ImportError:
    print("skipped: PyOpenColorIO (scripts/setup)")
    sys.exit(77)

check = xwin.check
image = xwin.sample_or_skip("Desk.exr")


def numbers(line, keys):
    words = line.replace(":", " ").split()
    return [float(words[words.index(k) + 1]) for k in keys]


# XYZ -> linear sRGB primaries by OCIO: the display transform's code values, decoded.
t = ocio.BuiltinTransform("DISPLAY - CIE-XYZ-D65_to_sRGB")
proc = ocio.Config.CreateRaw().getProcessor(t).getDefaultCPUProcessor()


def xyz_to_rec709(xyz):
    """Linear Rec. 709 of XYZ: OCIO's matrix, read off its primaries' images (no clipping)."""
    basis = np.eye(3, dtype=np.float32) * 0.5
    out = basis.copy()
    proc.applyRGB(out)
    with np.errstate(invalid="ignore"):   # the branch np.where leaves out
        lin = np.where(out <= 0.04045, out / 12.92, ((out + 0.055) / 1.055) ** 2.4) / 0.5
    return np.asarray(xyz) @ lin   # rows: the images of X, Y and Z


v = xwin.Viewer(image, "--colorspace", "xyz", "--window", "1240x1000", "--msaa", "1",
                "--keys", "ctrl+0")
try:
    vp = v.layout()["viewport"]
    x, y = vp[0] + vp[2] // 2 + 17, vp[1] + vp[3] // 2 - 40
    xwin.xdo("mousemove", "--window", v.wid, x, y)
    v.settle()
    lines = v.notes("pixel")
    shot = v.pixels()
finally:
    v.close()
print("\n".join(lines))
file_rgb = [l for l in lines if l.startswith("R ")]
conv = [l for l in lines if l.startswith("in sRGB:")]
codes = [l for l in lines if l.startswith("sRGB ")]
check(file_rgb and conv and codes, "the inspector shows the file's values, the converted ones "
      "and the display's bytes: %s" % lines)
if file_rgb and conv and codes:
    xyz = numbers(file_rgb[0], ["R", "G", "B"])
    got = np.array(numbers(conv[0], ["R", "G", "B"]))
    want = xyz_to_rec709(xyz)
    check(np.allclose(got, want, rtol=2e-3, atol=2e-4),
          "the values in sRGB's primaries %s are OCIO's %s" % (got, want))
    b = [int(w) for w in codes[0].split()[1:4]]
    px = [int(c) for c in shot[y, x]]
    check(max(abs(p - q) for p, q in zip(b, px)) <= 1,
          "the display bytes %s are the window's pixel under the cursor %s" % (b, px))
sys.exit(1 if xwin.fails else 0)
