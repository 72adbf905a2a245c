#!/usr/bin/env python3
"""export --view ocio (issue 28) against PyOpenColorIO (Debian python3-pyopencolorio), an
independent reference: its own CPU processor of the same config for every display and view
of the bundled config on a set of colours (greys over 17 stops, saturated, out of gamut,
bright, negative, NaN), with the named input spaces, a config space given to --colorspace, a
space the config lacks (converted by hdrtone's matrix, checked against numpy's), --exposure;
--backend cpu within 1 level of it, the GPU within 1 level of the CPU (also with a config of
1D and 3D LUT files: the textures), 16-bit output on both; the bundled config itself against OCIO's builtins and the
curves' published formulas; bad configs, displays, views, looks and spaces refused, naming
them, with no output written."""
import os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np
try:
    import PyOpenColorIO as ocio
    from PIL import Image
except ImportError as e:
    print("skipped:", e, "(scripts/setup: python3-pyopencolorio, python3-pil)")
    sys.exit(77)

binary, config, tmp, env = htpy.ocio_context()
check = htpy.check


def colours():
    """The test colours, linear RGB: a row of greys, rows of hues at several levels, out of
    gamut and non-finite ones."""
    greys = [[2.0 ** s] * 3 for s in range(-12, 13, 3)] + [[0, 0, 0], [0.18] * 3]
    hues = []
    for level in (0.05, 0.5, 1.0, 8.0, 200.0):
        for c in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1],
                  [1, 0.5, 0.2], [0.2, 0.4, 1]):
            hues.append([level * v for v in c])
    odd = [[-0.2, 0.5, 0.3], [1.5, -0.1, -0.05], [0.01, 0.2, -0.3], [3000, 1500, 10],
           [1e5, 1e5, 1e5], [float("nan"), 0.5, 0.5], [float("inf"), 0, 0], [-1, -1, -1]]
    rows = greys + hues + odd
    n = len(rows)
    w = 8
    h = (n + w - 1) // w
    rows += [[0.18] * 3] * (w * h - n)
    return np.array(rows, np.float32).reshape(h, w, 3)


pixels = colours()
src = os.path.join(tmp, "colours.exr")
htpy.write_exr(src, pixels)


def read_png16(path):
    """A 16-bit RGB PNG as int H x W x 3 (python3-png: PIL reads 16-bit RGB as 8 bits)."""
    import png
    w, h, rows, info = png.Reader(filename=path).asDirect()
    check(info["bitdepth"] == 16, f"{path}: {info['bitdepth']} bits")
    return np.vstack([np.array(r, int) for r in rows]).reshape(h, w, 3)


def export(out, *args, expect_ok=True):
    r = subprocess.run([binary, "export", src, "-o", out, "--view", "ocio", *args],
                       capture_output=True, text=True, timeout=120, env=env)
    if expect_ok:
        check(r.returncode == 0, f"export {args}: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        return None, r.stderr
    if "16" in args:
        return read_png16(out), r.stderr
    return np.asarray(Image.open(out).convert("RGB")).astype(int), r.stderr


def reference(cfg, rgb, space, display, view, mul=1.0, levels=255):
    """PyOpenColorIO's CPU processor of SPACE through DISPLAY's VIEW, rounded to LEVELS as a
    display-encoded value is (non-finite inputs 0, the output clipped)."""
    t = ocio.DisplayViewTransform(src=space, display=display, view=view)
    p = cfg.getProcessor(t).getDefaultCPUProcessor()
    v = np.where(np.isfinite(rgb), rgb * np.float32(mul), 0).astype(np.float32)
    flat = np.ascontiguousarray(v.reshape(-1, 3))
    p.applyRGB(flat)
    out = np.nan_to_num(flat.reshape(rgb.shape), nan=0.0)
    return np.floor(np.clip(out, 0, 1) * levels + 0.5).astype(int)


def within(a, b, what, tol=1):
    if a is None or b is None:
        return
    d = np.abs(a - b)
    check(d.max() <= tol, f"{what}: {d.max()} levels off ({(d > tol).sum()} values)")


cfg = ocio.Config.CreateFromFile(config)
cfg.validate()
displays = ["sRGB - Display", "Display P3 - Display", "Rec.1886 Rec.709 - Display",
            "Rec.2100-PQ - Display"]
views = ["ACES 1.0 - SDR Video", "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)",
         "Un-tone-mapped", "Raw"]
check(list(cfg.getDisplays()) == displays, f"displays {list(cfg.getDisplays())}")
for d in displays:
    check(sorted(cfg.getViews(d)) == sorted(views), f"{d}: views {list(cfg.getViews(d))}")
for s in ["ACEScg", "ACES2065-1", "Linear Rec.709 (sRGB)", "Linear Rec.2020", "Linear P3-D65",
          "CIE-XYZ-D65", "sRGB - Texture"]:
    check(cfg.getColorSpace(s) is not None, f"colour space {s} missing")

# Every display and view, the file untagged (Rec. 709), on the CPU against PyOpenColorIO.
cpu = {}
for d in displays:
    for v in views:
        out = os.path.join(tmp, f"cpu_{displays.index(d)}_{views.index(v)}.png")
        a, _ = export(out, "--backend", "cpu", "--ocio-display", d, "--ocio-view", v)
        cpu[(d, v)] = a
        within(a, reference(cfg, pixels, "Linear Rec.709 (sRGB)", d, v), f"cpu {d} / {v}")
# The defaults: the config's default display and view.
a, _ = export(os.path.join(tmp, "default.png"), "--backend", "cpu")
within(a, cpu[("sRGB - Display", "ACES 1.0 - SDR Video")], "default display and view", 0)

# Inputs: a named space (its OCIO name), a config space named to --colorspace, a space the
# config lacks (Radiance's primaries, white E adapted to D65: hdrtone's matrix to Rec. 709,
# checked against numpy's Bradford), and --exposure.
def rgb_to_xyz(prim, white):
    m = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in prim]).T
    w = np.array([white[0] / white[1], 1.0, (1 - white[0] - white[1]) / white[1]])
    return m * np.linalg.solve(m, w)


BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367],
                     [0.0389, -0.0685, 1.0296]])
D65, E = (0.3127, 0.3290), (1 / 3, 1 / 3)


def bradford(src_w, dst_w):
    xyz = lambda w: np.array([w[0] / w[1], 1.0, (1 - w[0] - w[1]) / w[1]])
    s, d = BRADFORD @ xyz(src_w), BRADFORD @ xyz(dst_w)
    return np.linalg.inv(BRADFORD) @ np.diag(d / s) @ BRADFORD


rad = rgb_to_xyz([(0.640, 0.330), (0.290, 0.600), (0.150, 0.060)], E)
rec709 = rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], D65)
rad_to_709 = (np.linalg.inv(rec709) @ bradford(E, D65) @ rad).astype(np.float32)
finite = np.where(np.isfinite(pixels), pixels, 0)
cases = [
    (("--colorspace", "acescg"), "ACEScg", pixels, 1.0),
    (("--colorspace", "rec2020"), "Linear Rec.2020", pixels, 1.0),
    (("--colorspace", "xyz"), "CIE-XYZ-D65", pixels, 1.0),
    (("--colorspace", "ACES2065-1", "--exposure", "2"), "ACES2065-1", pixels, 4.0),
    (("--colorspace", "sRGB - Texture"), "sRGB - Texture", pixels, 1.0),
    (("--colorspace", "radiance"), "Linear Rec.709 (sRGB)", finite @ rad_to_709.T, 1.0),
]
for args, space, rgb, mul in cases:
    for d, v in [("sRGB - Display", "ACES 1.0 - SDR Video"),
                 ("Rec.2100-PQ - Display", "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)")]:
        a, _ = export(os.path.join(tmp, "in.png"), "--backend", "cpu", "--ocio-display", d,
                      "--ocio-view", v, *args)
        # The matrix in float32 on hdrtone's side and in double here: a level at most.
        within(a, reference(cfg, rgb, space, d, v, mul), f"cpu {args} {d} / {v}")

# The GPU within a level of the CPU.
for d, v in [("sRGB - Display", "ACES 1.0 - SDR Video"), ("Display P3 - Display", "Un-tone-mapped"),
             ("Rec.2100-PQ - Display", "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)"),
             ("Rec.1886 Rec.709 - Display", "Raw")]:
    a, _ = export(os.path.join(tmp, "gpu.png"), "--backend", "gpu", "--ocio-display", d,
                  "--ocio-view", v)
    within(a, cpu[(d, v)], f"gpu vs cpu {d} / {v}")
for args in (("--colorspace", "radiance", "--exposure", "-1.5"), ("--colorspace", "acescg")):
    pics = [export(os.path.join(tmp, f"{b}.png"), "--backend", b, *args)[0] for b in ("cpu", "gpu")]
    within(pics[0], pics[1], f"gpu vs cpu {args}")

# 16 bits (--depth 16): OCIO's values straight to 0..65535, on both backends. The CPU is
# OCIO's own processor (measured: equal); the GPU's float arithmetic differs from the CPU's
# by an ulp here and there (llvmpipe: 1 level of 65535; allowed 16, 0.025 %).
for d, v in [("sRGB - Display", "ACES 1.0 - SDR Video"),
             ("Rec.2100-PQ - Display", "ACES 1.0 - HDR Video (1000 nits & Rec.2020 lim)")]:
    pics = [export(os.path.join(tmp, f"d16_{b}.png"), "--backend", b, "--depth", "16",
                   "--ocio-display", d, "--ocio-view", v)[0] for b in ("cpu", "gpu")]
    ref = reference(cfg, pixels, "Linear Rec.709 (sRGB)", d, v, levels=65535)
    within(pics[0], ref, f"cpu 16 bits {d} / {v}", 1)
    within(pics[1], pics[0], f"gpu vs cpu 16 bits {d} / {v}", 16)

# The bundled config against OCIO's builtins and the published curves.
def proc(t):
    return cfg.getProcessor(t).getDefaultCPUProcessor()


def run(p, rgb):
    flat = np.ascontiguousarray(np.array(rgb, np.float32).reshape(-1, 3))
    p.applyRGB(flat)
    return flat


probe = np.array([[0.18, 0.18, 0.18], [1, 0.2, 0.05], [0.02, 0.5, 3], [8, 8, 8]], np.float32)
B = ocio.BuiltinTransform
built = ocio.GroupTransform([B("ACEScg_to_ACES2065-1"),
                             B("ACES-OUTPUT - ACES2065-1_to_CIE-XYZ-D65 - SDR-VIDEO_1.0"),
                             B("DISPLAY - CIE-XYZ-D65_to_sRGB")])
a = run(proc(ocio.DisplayViewTransform(src="ACEScg", display="sRGB - Display",
                                       view="ACES 1.0 - SDR Video")), probe)
check(np.abs(a - run(proc(built), probe)).max() < 1e-5, "SDR video view != OCIO's builtins")
xyz = run(proc(ocio.ColorSpaceTransform(src="Linear Rec.2020", dst="CIE-XYZ-D65")), probe)
r2020 = rgb_to_xyz([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], D65)
check(np.abs(xyz - probe @ r2020.T).max() < 1e-4 * probe.max(), "Linear Rec.2020 -> XYZ")
enc = np.array([[0.001, 0.04, 0.5]], np.float32)
lin = run(proc(ocio.ColorSpaceTransform(src="sRGB - Texture", dst="Linear Rec.709 (sRGB)")), enc)
srgb = np.where(enc <= 0.04045, enc / 12.92, ((enc + 0.055) / 1.055) ** 2.4)
check(np.abs(lin - srgb).max() < 1e-4, f"sRGB - Texture: {lin} != {srgb}")
# Rec. 709 white at 1 shown un-tone-mapped on the PQ display: 100 cd/m^2 through ST 2084.
pq = run(proc(ocio.DisplayViewTransform(src="Linear Rec.709 (sRGB)", display="Rec.2100-PQ - Display",
                                        view="Un-tone-mapped")), [[1, 1, 1]])
m1, m2, c1, c2, c3 = 2610 / 16384, 2523 / 4096 * 128, 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
y = 100 / 10000
want = ((c1 + c2 * y ** m1) / (1 + c3 * y ** m1)) ** m2
check(np.abs(pq - want).max() < 2e-4, f"PQ of 100 cd/m^2: {pq} != {want}")
p3 = run(proc(ocio.DisplayViewTransform(src="Linear P3-D65", display="Display P3 - Display",
                                        view="Un-tone-mapped")), [[1, 0, 0], [0.5, 0.5, 0.5]])
half = 1.055 * 0.5 ** (1 / 2.4) - 0.055
check(np.abs(p3 - [[1, 0, 0], [half] * 3]).max() < 2e-4, f"Display P3: {p3}")

# A config of LUT files: the GPU's textures (a 1D LUT folded into rows, a 3D LUT).
lutdir = os.path.join(tmp, "lut")
os.makedirs(lutdir)
n = 8192
with open(os.path.join(lutdir, "curve.spi1d"), "w") as f:
    f.write("Version 1\nFrom 0.0 4.0\nLength %d\nComponents 1\n{\n" % n)
    f.writelines("%.7f\n" % (x ** 0.45) for x in np.linspace(0, 1, n))
    f.write("}\n")
s = 17
with open(os.path.join(lutdir, "mix.cube"), "w") as f:
    f.write("LUT_3D_SIZE %d\n" % s)
    for b in range(s):
        for g in range(s):
            for r in range(s):
                R, G, Bl = r / (s - 1), g / (s - 1), b / (s - 1)
                f.write("%.6f %.6f %.6f\n" % (0.8 * R + 0.2 * G * G, 0.1 * R + 0.9 * G ** 1.2,
                                              0.5 * Bl + 0.5 * R * Bl))
lutcfg = os.path.join(lutdir, "config.ocio")
with open(lutcfg, "w") as f:
    f.write("""ocio_profile_version: 2.1
search_path: "."
strictparsing: true
roles:
  default: lin
file_rules:
  - !<Rule> {name: Default, colorspace: default}
displays:
  d:
    - !<View> {name: v, colorspace: lut}
colorspaces:
  - !<ColorSpace>
    name: lin
  - !<ColorSpace>
    name: lut
    from_scene_reference: !<GroupTransform>
      children:
        - !<FileTransform> {src: curve.spi1d, interpolation: linear}
        - !<FileTransform> {src: mix.cube, interpolation: tetrahedral}
""")
luts = [export(os.path.join(tmp, f"lut_{b}.png"), "--backend", b, "--ocio", lutcfg,
               "--colorspace", "lin")[0] for b in ("cpu", "gpu")]
within(luts[0], reference(ocio.Config.CreateFromFile(lutcfg), pixels, "lin", "d", "v"),
       "LUT config: cpu")
within(luts[0], luts[1], "LUT config: gpu vs cpu")

# Refusals: a clear message naming what is wrong, no output.
broken = os.path.join(tmp, "broken.ocio")
with open(config) as f:
    text = f.read()
with open(broken, "w") as f:
    f.write(text[:len(text) // 2] + "\n  - !<ColorSpace> {name: [\n")
bad = [(("--ocio", broken), broken), (("--ocio", os.path.join(tmp, "none.ocio")), "none.ocio"),
       (("--ocio-display", "No Such Display"), "No Such Display"),
       (("--ocio-view", "No Such View"), "No Such View"),
       (("--ocio-look", "No Such Look"), "No Such Look"),
       (("--colorspace", "No Such Space"), "No Such Space")]
for backend in ("cpu", "gpu"):
    for args, name in bad:
        out = os.path.join(tmp, "refused.png")
        if os.path.exists(out):
            os.remove(out)
        a, err = export(out, "--backend", backend, *args, expect_ok=False)
        check(a is None and name in err and "Traceback" not in err,
              f"{backend} {args}: not refused with its name: {err!r}")
        check(not os.path.exists(out), f"{backend} {args}: output written")
env["OCIO"] = broken   # $OCIO is the default config
a, err = export(os.path.join(tmp, "env.png"), "--backend", "cpu", expect_ok=False)
check(a is None and broken in err, f"$OCIO not used: {err!r}")

htpy.finish("test_ocio")
