"""The exposure view's HDR output (export --view exposure --hdr pq|hlg; src/app/export_view.c,
display.c's display_cpu_apply16): scene value v is shown at 203 cd/m^2 (BT.2408's reference
white) x v x 2^exposure, whatever Ldmax. The 16-bit PNG's codes are decoded here with the
ST 2084 and BT.2100 HLG formulas (numpy, not hdrtone's code) and compared with that within one
16-bit step; the offset is in the same scene units; colours keep their luminance in the Rec.2020
display; the CPU reference and the GPU agree within one code; the OCIO view and an Ultra HDR
JPEG of the exposure view are refused with a reason (false colour, channel: test_hdr_views.py)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_hdrexp_")
REF_WHITE = 203.0                                  # BT.2408, cd/m^2
LUM2020 = np.array([0.2627, 0.6780, 0.0593])       # BT.2020's luminance weights
LUM709 = np.array([0.2126, 0.7152, 0.0722])
GREYS = np.array([1 / 16, 0.25, 0.5, 1.0, 2.0, 3.0])
COLOURS = np.array([[0.5, 0.2, 0.1], [0.1, 0.4, 0.2], [0.2, 0.2, 0.6]])


def hdrtone(*args):
    r = subprocess.run([BIN] + [str(a) for a in args], capture_output=True, text=True)
    return r.returncode, r.stderr


def export(name, *opts):
    out = os.path.join(tmp, name)
    rc, err = hdrtone("export", src, "-o", out, "--view", "exposure", *opts)
    check(rc == 0, "export %s %s: %s" % (name, opts, err))
    return htpy.png_codes(out) if rc == 0 else None


# A row of greys, then a row of colours (Rec. 709 primaries, the OpenEXR default).
img = np.zeros((2, len(GREYS), 3), np.float32)
img[0] = GREYS[:, None]
img[1, :len(COLOURS)] = COLOURS
src = os.path.join(tmp, "levels.exr")
htpy.write_exr(src, img)

for ev, offset, ldmax in ((0, 0, None), (1, 0, None), (-1.5, 0, None), (0, 0, 4000),
                          (1, 0.25, None)):
    opts = ["--hdr", "pq", "--exposure", ev, "--offset", offset, "--backend", "cpu"]
    opts += ["--ldmax", ldmax] if ldmax else []
    px = export("pq_%g_%g_%s.png" % (ev, offset, ldmax), *opts)
    if px is None:
        continue
    lum = htpy.pq_decode(px / 65535)
    want = REF_WHITE * (GREYS * 2 ** ev + offset)
    shown = want <= (ldmax or 1000)   # above Ldmax: clipped there
    got = lum[0, :, 1]
    ok = np.abs(got - want)[shown] <= htpy.pq_step(px[0, :, 1])[shown]
    check(ok.all(), "--hdr pq %s: greys at %s cd/m^2, not %s" % (opts, got, want))
    clip = np.abs(got[~shown] - (ldmax or 1000)) <= htpy.pq_step(px[0, ~shown, 1])
    check(clip.all(), "%s: above Ldmax not clipped to it: %s" % (opts, got[~shown]))
    check(np.all(np.abs(lum[0] - lum[0, :, :1]) <= htpy.pq_step(px[0]) + 1e-9),
          "%s: greys not grey: %s" % (opts, lum[0]))
    if offset == 0:
        y = lum[1, :len(COLOURS)] @ LUM2020
        wy = REF_WHITE * 2 ** ev * (COLOURS @ LUM709)
        check(np.all(np.abs(y / wy - 1) < 0.005), "%s: colours' luminance %s, not %s"
              % (opts, y, wy))

# HLG: BT.2100's reference white is 203 cd/m^2 on a 1,000 cd/m^2 display too.
px = export("hlg.png", "--hdr", "hlg", "--backend", "cpu")
if px is not None:
    got = htpy.hlg_decode(px[0] / 65535, 1000.0)[:, 1]
    want = np.minimum(REF_WHITE * GREYS, 1000)
    check(np.all(np.abs(got / want - 1) < 0.002), "--hdr hlg: greys at %s, not %s" % (got, want))

# The GPU (Mesa's llvmpipe here) against the CPU reference: one code at most, on a real
# picture as well as the levels.
samples = os.path.join(os.environ.get("HT_SHARED", ""), "exr-samples")
inputs = [src] + ([os.path.join(samples, "Desk.exr")] if os.path.isdir(samples) else [])
for i, path in enumerate(inputs):
    src = path
    for kind in ("pq", "hlg"):
        a = export("cpu%d_%s.png" % (i, kind), "--hdr", kind, "--exposure", 2, "--backend", "cpu")
        b = export("gpu%d_%s.png" % (i, kind), "--hdr", kind, "--exposure", 2, "--backend", "gpu")
        if a is not None and b is not None:
            d = np.abs(a - b).max()
            check(d <= 1, "%s --hdr %s: the GPU is %d codes from the CPU reference"
                  % (path, kind, d))

# What stays refused, and why.
for opts, words in ((["--view", "ocio", "-o", "o.png"], "OCIO view"),
                    (["--view", "exposure", "-o", "u.jpg"], "Ultra HDR"),
                    (["--view", "exposure", "--depth", "8", "-o", "e8.png"], "band")):
    rc, err = hdrtone("export", inputs[0], "--hdr", "pq", *opts[:-1],
                      os.path.join(tmp, opts[-1]))
    check(rc == 2 and words in err, "%s --hdr pq: exit %d, %r" % (opts, rc, err))
htpy.finish("test_hdr_exposure")
