"""PNG and JPEG colour tags (src/io/icc.c, ldr_colour.c) against references independent of
lcms2: files tagged by Pillow, ImageMagick and this test's own PNG and ICC writers (iccpy.py),
each decoded by hdrtone (tests/tools/ldr_dump: image_ldr_load, what compare reads) and checked
against linear Rec. 709 values computed here in numpy from the standards' primaries and
curves; precedence of cICP, iCCP, sRGB and cHRM/gAMA; corrupt tags refused with the file named;
and compare on a tagged picture against its untagged twin."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np, Image  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
import iccpy as ic  # noqa: E402
from htpy import check  # noqa: E402

DUMP = os.environ.get("HT_LDR_DUMP", "ldr_dump")
BIN = os.environ.get("HT_BIN", "hdrtone")
tmp = os.environ.get('KEEP') or tempfile.mkdtemp(prefix='ht_ldr_colour_')

# Codes: every mix of five levels per channel (saturated corners included) and a grey ramp.
LEVELS = np.array([0, 37, 128, 200, 255])
GRID = np.stack(np.meshgrid(LEVELS, LEVELS, LEVELS, indexing="ij"), -1).reshape(5, 25, 3)
RAMP = np.repeat(np.arange(0, 256, 8)[None, :, None], 3, axis=2)
# Tolerances: a profile's colorants are s15Fixed16 numbers (2.8e-5 seen); numeric tags are
# converted in float (6e-8 seen). An 8-bit level is 1.2e-3 of linear at the darkest step.
ICC_TOL, NUM_TOL = 1e-4, 2e-5


def decode(name):
    """(info, H x W x 3 float32) of hdrtone's decode of NAME, or (None, stderr)."""
    path = os.path.join(tmp, name)
    out = path + ".f32"
    r = subprocess.run([DUMP, path, out], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    info = json.loads(r.stdout)
    v = np.fromfile(out, dtype=np.float32).reshape(info["height"], info["width"], 3)
    return info, v


def expect(name, want, tol, source, tag):
    """hdrtone's decode of NAME equals WANT (linear Rec. 709) within TOL, from SOURCE/TAG."""
    info, got = decode(name)
    if info is None:
        check(False, "%s refused: %s" % (name, got.strip()))
        return None
    check(info["linear"] and info["source"] == source and info["tag"] == tag,
          "%s: %s (want linear, %s, %s)" % (name, info, source, tag))
    err = np.abs(got - want).max()
    check(err <= tol, "%s: max error %.3g > %.3g" % (name, err, tol))
    return got


def linear(space, codes, decode_curve, scale=255.0):
    lin = decode_curve(np.asarray(codes, dtype=np.float64) / scale)
    return lin @ ic.to_rec709(space).T


def test_icc_png():
    """Display P3 (P3-D65, sRGB curve), written by Pillow (iCCP), 8-bit; and 16-bit by this
    test's writer. P3's saturated red comes back beyond Rec. 709 (1.2249, -0.0421, -0.0196)."""
    p3 = ic.profile(ic.P3D65, desc="Display P3 (test)")
    Image.fromarray(GRID.astype(np.uint8)).save(os.path.join(tmp, "p3.png"), icc_profile=p3)
    got = expect("p3.png", linear(ic.P3D65, GRID, ic.srgb_decode), ICC_TOL, "icc", "iCCP")
    if got is not None:
        red = got[4, 0]   # (255, 0, 0)
        check(abs(red[0] - 1.2249) < 2e-3 and red[1] < -0.03 and red[2] < -0.01,
              "P3 red out of Rec. 709's gamut kept: %s" % red)
    codes16 = (GRID.astype(np.uint32) * 257 - 97).clip(0, 65535).astype(np.uint16)
    ic.write_png(os.path.join(tmp, "p3_16.png"), codes16, [ic.iccp(p3)])
    expect("p3_16.png", linear(ic.P3D65, codes16, ic.srgb_decode, 65535.0), ICC_TOL, "icc", "iCCP")
    # More pixels than codes: the per-channel tables of icc.c (above: lcms2 on each pixel).
    rng = np.random.default_rng(28)
    big8 = rng.integers(0, 256, (40, 40, 3)).astype(np.uint8)
    big16 = rng.integers(0, 65536, (270, 250, 3)).astype(np.uint16)
    ic.write_png(os.path.join(tmp, "p3_big8.png"), big8, [ic.iccp(p3)])
    ic.write_png(os.path.join(tmp, "p3_big16.png"), big16, [ic.iccp(p3)])
    expect("p3_big8.png", linear(ic.P3D65, big8, ic.srgb_decode), ICC_TOL, "icc", "iCCP")
    expect("p3_big16.png", linear(ic.P3D65, big16, ic.srgb_decode, 65535.0), ICC_TOL, "icc",
           "iCCP")
    # A grey profile (gamma 1.8) on a grey PNG (Pillow 'L').
    g18 = ic.profile(grey=True, curve=ic.tag_curve_gamma(1.8))
    Image.fromarray(RAMP[:, :, 0].astype(np.uint8), "L").save(os.path.join(tmp, "grey.png"),
                                                              icc_profile=g18)
    want = np.repeat((RAMP[:, :, :1] / 255.0) ** (round(1.8 * 256) / 256), 3, axis=2)  # u8Fixed8
    expect("grey.png", want, ICC_TOL, "icc", "iCCP")


def within_codes(name, got, space, curve):
    """hdrtone's decode GOT of JPEG NAME within a level of its codes as Pillow (libjpeg-turbo)
    decodes them (stb_image's IDCT differs by a level), converted here by SPACE and CURVE."""
    codes = np.asarray(Image.open(os.path.join(tmp, name)).convert("RGB"), dtype=np.float64)
    lo = linear(space, np.clip(codes - 1.01, 0, 255), curve)
    hi = linear(space, np.clip(codes + 1.01, 0, 255), curve)
    slack = np.abs(ic.to_rec709(space)).sum(1) * 0.013   # a level at the top of the curve
    out = (got < np.minimum(lo, hi) - slack) | (got > np.maximum(lo, hi) + slack)
    check(not out.any(), "%s: %d values beyond a level of the codes" % (name, out.sum()))


def test_jpeg():
    """Adobe RGB (1998) converted from sRGB by ImageMagick's -profile (its APP2); a Display P3
    profile of ~74 kB (sampled curves) that Pillow splits over two APP2 segments."""
    srgb = ic.profile(ic.REC709, desc="sRGB (test)")
    adobe = ic.profile(ic.ADOBE, curve=ic.tag_curve_gamma(563 / 256), desc="Adobe RGB (test)")
    for name, data in (("srgb.icc", srgb), ("adobe.icc", adobe)):
        open(os.path.join(tmp, name), "wb").write(data)
    src = np.concatenate([GRID, RAMP[:, :25]], 0).astype(np.uint8)
    Image.fromarray(src).save(os.path.join(tmp, "src.png"))
    im = shutil.which("convert-im6.q16") or shutil.which("convert")
    cmd = [im, os.path.join(tmp, "src.png"), "-profile", os.path.join(tmp, "srgb.icc"),
           "-profile", os.path.join(tmp, "adobe.icc"), "-quality", "100", "-sampling-factor",
           "1x1", os.path.join(tmp, "adobe.jpg")]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        check(False, "ImageMagick could not write the Adobe RGB JPEG: %s" % cmd)
        return
    info, got = decode("adobe.jpg")
    if info is None:
        check(False, "adobe.jpg refused: " + got)
        return
    check(info["source"] == "icc" and info["tag"] == "APP2 ICC_PROFILE (1 segment)",
          "adobe.jpg: %s" % info)
    adobe_curve = lambda v: v ** (563 / 256)  # noqa: E731
    within_codes("adobe.jpg", got, ic.ADOBE, adobe_curve)
    # And the sRGB original, within what 8-bit Adobe RGB and JPEG keep of it.
    err = np.abs(got - ic.srgb_decode(src / 255.0))
    check(err.max() < 0.035 and err.mean() < 0.003,
          "adobe.jpg: %.3g max, %.3g mean from the sRGB original" % (err.max(), err.mean()))
    big = ic.profile(ic.P3D65, curve=ic.tag_curve_table(ic.srgb_decode, 12288), desc="P3 big")
    Image.fromarray(GRID.astype(np.uint8)).save(os.path.join(tmp, "p3.jpg"), icc_profile=big,
                                                quality=100, subsampling=0)
    info, got = decode("p3.jpg")
    if info is None:
        check(False, "p3.jpg refused: " + got)
        return
    check(info["tag"] == "APP2 ICC_PROFILE (2 segments)", "p3.jpg: %s" % info)
    within_codes("p3.jpg", got, ic.P3D65, ic.srgb_decode)


def test_cicp():
    """cICP (third edition): Rec. 2020 + sRGB curve, P3-D65 + linear, Rec. 709 + BT.709's
    curve; 16-bit; and cICP ruling over an iCCP that says otherwise."""
    codes16 = (GRID.astype(np.uint32) * 257).astype(np.uint16)
    cases = (("c2020.png", 9, 13, ic.REC2020, ic.srgb_decode),
             ("cp3lin.png", 12, 8, ic.P3D65, lambda v: v),
             ("c709.png", 1, 1, ic.REC709, ic.bt709_decode))
    for name, prim, tf, space, curve in cases:
        ic.write_png(os.path.join(tmp, name), codes16, [ic.cicp(prim, tf)])
        expect(name, linear(space, codes16, curve, 65535.0), NUM_TOL, "cicp",
               "cICP %d/%d/0/1" % (prim, tf))
    ic.write_png(os.path.join(tmp, "cicp_over_iccp.png"), GRID.astype(np.uint8),
                 [ic.iccp(ic.profile(ic.ADOBE)), ic.cicp(12, 13)])
    expect("cicp_over_iccp.png", linear(ic.P3D65, GRID, ic.srgb_decode), NUM_TOL, "cicp",
           "cICP 12/13/0/1")


def test_gama_chrm():
    """cHRM and gAMA: the decoding exponent is 1/gAMA; a D50 white adapted to D65 (Bradford);
    gAMA alone keeps sRGB's primaries; sRGB over gAMA; iCCP over sRGB."""
    odd = ((0.66, 0.32), (0.22, 0.70), (0.14, 0.07), (0.3457, 0.3585))   # white D50
    ic.write_png(os.path.join(tmp, "chrm.png"), GRID.astype(np.uint8),
                 [ic.gama(1 / 2.2), ic.chrm(odd)])
    expect("chrm.png", linear(odd, GRID, lambda v: v ** 2.2), NUM_TOL, "chromaticities",
           "gAMA and cHRM")
    ic.write_png(os.path.join(tmp, "gama.png"), GRID.astype(np.uint8), [ic.gama(1 / 1.8)])
    expect("gama.png", linear(ic.REC709, GRID, lambda v: v ** 1.8), NUM_TOL, "chromaticities",
           "gAMA")
    ic.write_png(os.path.join(tmp, "srgb_chunk.png"), GRID.astype(np.uint8),
                 [(b"sRGB", b"\0"), ic.gama(1.0)])
    info, got = decode("srgb_chunk.png")
    check(info is not None and not info["linear"] and info["tag"] == "sRGB" and
          np.array_equal(got, (GRID / 255.0).astype(np.float32)),
          "sRGB chunk over gAMA: the sRGB values as untagged: %s" % (info,))
    ic.write_png(os.path.join(tmp, "iccp_over_srgb.png"), GRID.astype(np.uint8),
                 [(b"sRGB", b"\0"), ic.iccp(ic.profile(ic.P3D65))])
    expect("iccp_over_srgb.png", linear(ic.P3D65, GRID, ic.srgb_decode), ICC_TOL, "icc", "iCCP")


def test_refused():
    """Corrupt and unsupported tags: refused by ldr_dump and compare with the file named."""
    good = ic.profile(ic.P3D65)
    codes = GRID.astype(np.uint8)
    bad = {
        "bad_zlib.png": [(b"iCCP", b"ICC Profile\0\0" + b"\x78\x9c garbage")],
        "bad_profile.png": [ic.iccp(b"\0" * 100 + os.urandom(400))],
        "truncated_profile.png": [ic.iccp(good[:300])],
        "cmyk_profile.png": [ic.iccp(ic.profile(ic.P3D65, colour_space=b"CMYK"))],
        "grey_profile_rgb.png": [ic.iccp(ic.profile(grey=True))],
        "pq.png": [ic.cicp(9, 16)],
        "hlg.png": [ic.cicp(9, 18)],
        "cicp_narrow.png": [ic.cicp(1, 13, full=0)],
        "cicp_ycbcr.png": [ic.cicp(1, 13, mc=1)],
        "cicp_primaries.png": [ic.cicp(22, 13)],
        "cicp_short.png": [(b"cICP", b"\x09\x0d\x00")],
        "gama_zero.png": [(b"gAMA", b"\0\0\0\0")],
        "chrm_collinear.png": [ic.chrm(((0.2, 0.2), (0.4, 0.4), (0.6, 0.3), ic.D65))],
    }
    for name, chunks in bad.items():
        ic.write_png(os.path.join(tmp, name), codes, chunks)
    Image.fromarray(codes).save(os.path.join(tmp, "bad_app2.jpg"), icc_profile=os.urandom(3000))
    big = ic.profile(ic.P3D65, curve=ic.tag_curve_table(ic.srgb_decode, 12288))
    Image.fromarray(codes).save(os.path.join(tmp, "two.jpg"), icc_profile=big)
    data = open(os.path.join(tmp, "two.jpg"), "rb").read()
    second = data.index(b"ICC_PROFILE\0\x02\x02")
    # The second segment's number made 1 again: "segment 1 of 2, twice".
    data = data[:second + 12] + b"\x01" + data[second + 13:]
    open(os.path.join(tmp, "app2_twice.jpg"), "wb").write(data)
    ref = os.path.join(tmp, "plain.png")
    Image.fromarray(codes).save(ref)
    for name in list(bad) + ["bad_app2.jpg", "app2_twice.jpg"]:
        path = os.path.join(tmp, name)
        info, msg = decode(name)
        check(info is None and msg.startswith(path + ": ") and "\n" == msg[-1:] and
              msg.count("\n") == 1, "%s: refused in one line naming it: %r" % (name, msg))
        r = subprocess.run([BIN, "compare", ref, path, "--backend", "cpu"], capture_output=True,
                           text=True, timeout=60)
        check(r.returncode == 1 and path in r.stderr and not r.stdout,
              "compare with %s: exit %d, %r" % (name, r.returncode, r.stderr))


def test_compare():
    """compare sees the same picture in a P3-tagged PNG and its sRGB twin: in-gamut colours
    written in P3 by numpy (16-bit) against the 16-bit sRGB original; the tag ignored would
    put them ~0.05 apart."""
    src = np.concatenate([GRID[:, :, :], RAMP[:, :25]], 0) / 255.0 * 0.8 + 0.1
    lin = ic.srgb_decode(src)
    p3 = lin @ np.linalg.inv(ic.to_rec709(ic.P3D65)).T
    to16 = lambda v: np.round(ic.srgb_encode(v) * 65535).astype(np.uint16)  # noqa: E731
    ic.write_png(os.path.join(tmp, "twin_srgb.png"), to16(lin))
    ic.write_png(os.path.join(tmp, "twin_p3.png"), to16(p3), [ic.iccp(ic.profile(ic.P3D65))])
    ic.write_png(os.path.join(tmp, "twin_untagged.png"), to16(p3))
    maes = []
    for test in ("twin_p3.png", "twin_untagged.png"):
        r = subprocess.run([BIN, "compare", os.path.join(tmp, "twin_srgb.png"),
                            os.path.join(tmp, test), "--json", "--metric", "mae", "--backend",
                            "cpu"], capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, "compare %s: %s" % (test, r.stderr))
        maes.append(json.loads(r.stdout)["mae"] if r.returncode == 0 else 1.0)
    check(maes[0] < 2e-4 and maes[1] > 0.01,
          "compare: P3-tagged twin MAE %.3g (< 2e-4), untagged %.3g (> 0.01)" % tuple(maes))
    # HDR: a Rec. 709 OpenEXR against the same image in P3-D65 with its chromaticities.
    hdr = lin * 4.0
    htpy.write_exr(os.path.join(tmp, "r709.exr"), hdr.astype(np.float32))
    htpy.write_exr(os.path.join(tmp, "p3.exr"), (hdr @ np.linalg.inv(ic.to_rec709(ic.P3D65)).T)
                   .astype(np.float32), chromaticities=ic.P3D65)
    r = subprocess.run([BIN, "compare", os.path.join(tmp, "r709.exr"), os.path.join(tmp, "p3.exr"),
                        "--json", "--backend", "cpu"], capture_output=True, text=True, timeout=60)
    res = json.loads(r.stdout) if r.returncode == 0 else {"mae": 1, "mean": 1}
    check(res["mae"] < 1e-5 and res["mean"] < 1e-4,
          "compare: Rec. 709 EXR against its P3 twin: MAE %.3g, FLIP %.3g" % (res["mae"],
                                                                           res["mean"]))
    # stats names the EXR's space and where it came from.
    r = subprocess.run([BIN, "stats", os.path.join(tmp, "p3.exr"), "--json", "--backend", "cpu"],
                       capture_output=True, text=True, timeout=60)
    cs = json.loads(r.stdout)["colorspace"] if r.returncode == 0 else {}
    check(cs.get("name") == "p3d65" and cs.get("source") == "chromaticities" and
          np.allclose(cs.get("primaries"), ic.P3D65[:3], atol=1e-7) and   # float in the file
          np.allclose(cs.get("white"), ic.D65, atol=1e-7), "stats colorspace of p3.exr: %s" % cs)


def test_stats_default():
    """stats names the default space of a Radiance picture, in JSON and text."""
    path = os.path.join(tmp, "plain.hdr")
    htpy.write_hdr(path, np.full((2, 3, 3), 0.5, np.float32))
    r = subprocess.run([BIN, "stats", path, "--json", "--backend", "cpu"], capture_output=True,
                       text=True, timeout=60)
    cs = json.loads(r.stdout)["colorspace"] if r.returncode == 0 else {}
    check(cs == {"name": "rec709", "primaries": [[0.64, 0.33], [0.3, 0.6], [0.15, 0.06]],
                 "white": [0.3127, 0.329], "source": "default"}, "stats plain.hdr: %s" % cs)
    r = subprocess.run([BIN, "stats", path, "--backend", "cpu", "--colorspace", "acescg"],
                       capture_output=True, text=True, timeout=60)
    line = [x for x in r.stdout.splitlines() if x.startswith("colour space")]
    check(line == ["colour space  acescg (ACEScg (AP1)), R 0.713,0.293 G 0.165,0.83 B 0.128,0.044 "
                   "white 0.3217,0.3377; from option"], "stats text: %s" % line)


def main():
    for t in (test_icc_png, test_jpeg, test_cicp, test_gama_chrm, test_refused, test_compare,
              test_stats_default):
        t()
    if not htpy.failures and not os.environ.get("KEEP"):
        shutil.rmtree(tmp, ignore_errors=True)
    htpy.finish("test_ldr_colour")


if __name__ == "__main__":
    main()
