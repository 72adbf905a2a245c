"""The false-colour and channel views for an HDR display (export --view falsecolor|channel
--hdr pq|hlg; src/app/export_view.c, display.c's display_cpu_apply16, legend.c): the view's
picture, whose white is the SDR picture's linear 1.0, is put at 203 cd/m^2 (BT.2408's reference
white) whatever Ldmax. The 16-bit PNG's codes are decoded here with the ST 2084 and BT.2100 HLG
formulas (numpy, not hdrtone's code):
- the channel view's greys land at 203 x v cd/m^2 within one 16-bit PQ step (HLG: 0.2 %);
- falsecolor's palette ends (Radiance falsecolor's def_redp/grnp/blup first and last points)
  at 203 x their value within one step, channel by channel;
- every pixel of the picture and of the legend at 203 x the SDR export's linear value, within
  the SDR export's 8-bit rounding plus one PQ step;
- the PNG's cICP says BT.2020 primaries and PQ; avifdec and djxl/jxlinfo read the AVIF and
  JPEG XL with the transfer and primaries asked for and decode the PNG's pixels;
- the GPU and the CPU reference within one code; an Ultra HDR JPEG of these views refused."""
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
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_hdrviews_")
REF_WHITE = 203.0                                  # BT.2408, cd/m^2
GREYS = np.array([0.0, 1 / 16, 0.25, 0.5, 0.75, 1.0])
# Radiance falsecolor's default palette, its first and last control points (R, G, B).
FC_FIRST = np.array([0.18848, 0.0009766, 0.2666])
FC_LAST = np.array([0.9863, 0.9707, 0.02539])
LEGEND_W = 100                                     # falsecolor -lw


def hdrtone(*args):
    r = subprocess.run([BIN] + [str(a) for a in args], capture_output=True, text=True)
    return r.returncode, r.stderr


def export(src, name, *opts):
    out = os.path.join(tmp, name)
    rc, err = hdrtone("export", src, "-o", out, *opts)
    check(rc == 0, "export %s %s: %s" % (name, opts, err))
    return out if rc == 0 else None


def codes(path):
    return htpy.png_codes(path) if path else None


def srgb_decode(e):
    e = np.asarray(e, dtype=np.float64)
    return np.where(e <= 0.04045, e / 12.92, ((e + 0.055) / 1.055) ** 2.4)


def cicp(path):
    """The PNG's cICP chunk (primaries, transfer, matrix, full range), None without one."""
    data = open(path, "rb").read()
    at = 8
    while at + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"cICP":
            return tuple(data[at + 8:at + 12])
        at += 12 + n
    return None


def near_pq(px, want, what):
    """PQ codes PX decode to WANT cd/m^2 within one 16-bit step."""
    got = htpy.pq_decode(px / 65535)
    ok = np.abs(got - want) <= htpy.pq_step(px) + 1e-9
    check(ok.all(), "%s: %s cd/m^2, not %s" % (what, got[~ok][:6], np.asarray(want)[~ok][:6]))


def within_sdr(hdr_px, sdr_px, what):
    """Every HDR PQ sample at 203 x the SDR sample's linear value: inside the interval the
    SDR's 8-bit code stands for (half a code either side), widened by one PQ step."""
    got = htpy.pq_decode(hdr_px / 65535)
    lo = REF_WHITE * srgb_decode(np.maximum(sdr_px - 0.5, 0) / 255) - htpy.pq_step(
        np.maximum(hdr_px - 1, 0))
    hi = REF_WHITE * srgb_decode(np.minimum(sdr_px + 0.5, 255) / 255) + htpy.pq_step(hdr_px)
    ok = (got >= lo - 1e-9) & (got <= hi + 1e-9)
    check(ok.all(), "%s: %d of %d samples off the SDR picture's (e.g. %s cd/m^2, SDR code %s)"
          % (what, (~ok).sum(), ok.size, got[~ok][:4], sdr_px[~ok][:4]))


# Greys (channel view: G over its own range 0..1), and luminances in cd/m^2 (whiteLuminance 1)
# from 0 to twice the false-colour scale's top (100).
greys = np.repeat(GREYS[None, :, None], 3, axis=2).astype(np.float32)
grey_src = os.path.join(tmp, "greys.exr")
htpy.write_exr(grey_src, greys)
lums = np.array([0.0, 0.3, 3, 10, 25, 50, 75, 99, 100, 200], np.float32)
ramp = np.repeat(lums[None, :, None], 3, axis=2) * np.ones((3, 1, 1), np.float32)
ramp[1] *= np.array([1.2, 1.0, 0.7], np.float32)   # a tint: luminance still the row's order
fc_src = os.path.join(tmp, "ramp.exr")
htpy.write_exr(fc_src, ramp, white_luminance=1.0)
FC = ["--view", "falsecolor", "--fc-max", 100, "--backend", "cpu"]
CH = ["--view", "channel", "--channel", "G", "--channel-palette", "grey", "--backend", "cpu"]

# The channel view's greys: 203 x v, whatever Ldmax; HLG on its 1000 cd/m^2 display.
for ldmax in (1000, 4000):
    px = codes(export(grey_src, "ch_pq_%d.png" % ldmax, *CH, "--hdr", "pq", "--ldmax", ldmax))
    if px is not None:
        near_pq(px[0], REF_WHITE * GREYS[:, None] * np.ones(3), "channel grey, Ldmax %d" % ldmax)
px = codes(export(grey_src, "ch_hlg.png", *CH, "--hdr", "hlg"))
if px is not None:
    got = htpy.hlg_decode(px[0] / 65535, 1000.0)[1:, 1]
    want = REF_WHITE * GREYS[1:]
    check(np.all(np.abs(got / want - 1) < 0.002), "--hdr hlg: greys at %s, not %s" % (got, want))

# False colour: the palette's ends exactly; every pixel as the SDR picture's at 203.
path = export(fc_src, "fc_pq.png", *FC, "--legend", "off", "--hdr", "pq")
sdr = codes(export(fc_src, "fc_sdr.png", *FC, "--legend", "off"))
if path:
    check(cicp(path) == (9, 16, 0, 1), "cICP %s, not BT.2020 PQ full range" % (cicp(path),))
    px = codes(path)
    near_pq(px[0, 0], REF_WHITE * FC_FIRST, "falsecolor at 0 cd/m^2")
    near_pq(px[0, -2:], REF_WHITE * FC_LAST * np.ones((2, 3)), "falsecolor at the top")
    if sdr is not None:
        within_sdr(px, sdr, "falsecolor picture")

# The legend: beside the picture, at 203 x the SDR legend's colours, its white text at 203.
leg = codes(export(fc_src, "fcl_pq.png", *FC, "--hdr", "pq"))
leg_sdr = codes(export(fc_src, "fcl_sdr.png", *FC))
if leg is not None and leg_sdr is not None and path:
    check(leg.shape[:2] == leg_sdr.shape[:2], "legend sizes %s, %s" % (leg.shape, leg_sdr.shape))
    within_sdr(leg[:, :LEGEND_W], leg_sdr[:, :LEGEND_W], "legend")
    top = htpy.pq_decode(leg[:, :LEGEND_W].max() / 65535)
    check(abs(top - REF_WHITE) < 0.5, "the legend's white at %g cd/m^2, not 203" % top)
    check(np.array_equal(leg[:ramp.shape[0], LEGEND_W:], codes(path)),
          "the picture beside the legend is not the picture without it")

# The GPU (Mesa's llvmpipe here) against the CPU reference: one code at most, legend included.
for kind in ("pq", "hlg"):
    for src, opts in ((fc_src, FC), (grey_src, CH)):
        a = codes(export(src, "cpu_%s.png" % kind, *opts, "--hdr", kind))
        b = codes(export(src, "gpu_%s.png" % kind, *opts[:-1], "gpu", "--hdr", kind))
        if a is not None and b is not None:
            d = np.abs(a - b).max()
            check(d <= 1, "%s --hdr %s: the GPU %d codes from the CPU" % (opts[1], kind, d))

# AVIF and JPEG XL (libavif-bin, libjxl-tools): the CICP / colour encoding asked for and the
# PNG's pixels (AVIF: 10 bits, within half a 10-bit step; JPEG XL lossless: equal).
for kind, tc, words in (("pq", 16, "Rec.2100 primaries, PQ transfer function"),
                        ("hlg", 18, "Rec.2100 primaries, HLG transfer function")):
    png = export(fc_src, "v_%s.png" % kind, *FC, "--hdr", kind)
    avif = export(fc_src, "v_%s.avif" % kind, *FC, "--hdr", kind)
    jxl = export(fc_src, "v_%s.jxl" % kind, *FC, "--hdr", kind)
    if not (png and avif and jxl):
        continue
    r = subprocess.run(["avifdec", "--info", avif], capture_output=True, text=True)
    for want in ("Bit Depth      : 10", "Color Primaries: 9", "Transfer Char. : %d" % tc):
        check(want in r.stdout, "avifdec --info %s: no '%s': %s" % (avif, want, r.stdout))
    r = subprocess.run(["jxlinfo", jxl], capture_output=True, text=True)
    check(words in r.stdout and "16-bit RGB" in r.stdout, "jxlinfo %s: %s" % (jxl, r.stdout))
    if htpy.run_tool("avifdec", "-d", "16", avif, avif + ".png"):
        d = np.abs(codes(avif + ".png") - codes(png)).max()
        check(d <= 33, "%s: avifdec's pixels %d codes from the PNG's" % (avif, d))
    if htpy.run_tool("djxl", jxl, jxl + ".png"):
        check(np.array_equal(codes(jxl + ".png"), codes(png)), "%s: djxl's pixels differ" % jxl)

# Refused, with the reason (and nothing written).
jpg = os.path.join(tmp, "u.jpg")
for opts, words in ((FC + ["-o", jpg], "gain map"),
                    (CH + ["--format", "y4m", "-o", "-"], "not y4m")):
    rc, err = hdrtone("export", fc_src, "--hdr", "pq", *opts)
    check(rc == 2 and words in err, "%s --hdr pq: exit %d, %r" % (opts, rc, err))
check(not os.path.exists(jpg), "a refused export wrote %s" % jpg)
htpy.finish("test_hdr_views")
