#!/usr/bin/env python3
"""export --view (issues 22 and 23) on both backends: the channel view of multipart.0001.exr's
motion vectors (part forward_left, forward.u and forward.v as R and G) is not black and reports
its range (u 0..43, v -42..0); false colour of venice_sunset_1k.hdr has its legend left of the
picture (--legend off: none), the same picture from both backends; the exposure view is the
picture of its formula; --view needs 8-bit PNG or JPEG."""
import os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np
try:
    from PIL import Image
except ImportError:
    print("skipped: python3-pil")
    sys.exit(77)

binary = os.environ["HT_BIN"]
samples = htpy.samples_or_skip()
check = htpy.check
tmp = tempfile.mkdtemp()


def export(inp, out, *args):
    r = subprocess.run([binary, "export", inp, "-o", out, *args], capture_output=True, text=True,
                       timeout=120)
    check(r.returncode == 0, f"export {inp} {args}: exit {r.returncode}: {r.stderr}")
    return (np.asarray(Image.open(out).convert("RGB")).astype(int) if r.returncode == 0
            else None), r.stderr


mp = os.path.join(samples, "multipart.0001.exr")
venice = os.path.join(samples, "venice_sunset_1k.hdr")
for backend in ("cpu", "gpu"):
    for c in ("R", "G"):
        png = os.path.join(tmp, f"mv_{c}_{backend}.png")
        a, err = export(mp, png, "--part", "forward_left", "--view", "channel", "--channel", c,
                        "--backend", backend)
        if a is None:
            continue
        check(a.shape == (876, 877, 3), f"motion vectors {c}: shape {a.shape}")
        lit = (a.max(axis=2) > 8).mean()
        check(lit > 0.9, f"motion vectors {c} ({backend}): only {lit:.1%} of pixels not black")
        check(len(np.unique(a.reshape(-1, 3), axis=0)) > 20,
              f"motion vectors {c} ({backend}): a flat picture")
        rng = err.split(f"channel {c} over ")[-1].split(" ")[0].split("..") if " over " in err else []
        check(len(rng) == 2 and float(rng[0]) < float(rng[1]) and
              (float(rng[0]) < 0 or float(rng[1]) > 0), f"motion vectors {c}: range {err!r}")

pics = {}
for backend in ("cpu", "gpu"):
    png = os.path.join(tmp, f"fc_{backend}.png")
    a, err = export(venice, png, "--view", "falsecolor", "--fc-max", "auto", "--backend", backend)
    pics[backend] = a
    if a is None:
        continue
    check(a.shape == (512, 1024 + 100, 3), f"falsecolor with legend: shape {a.shape}")
    check("cd/m^2" in err and "Radiance" in err, f"falsecolor: units not said: {err!r}")
    legend = a[:, :100]
    check((legend.max(axis=2) > 200).sum() > 500, "falsecolor: no legend text or strip")
if pics.get("cpu") is not None and pics.get("gpu") is not None:
    d = np.abs(pics["cpu"] - pics["gpu"])
    check(d.max() <= 1, f"falsecolor: the backends differ by {d.max()}")
a, _ = export(venice, os.path.join(tmp, "fc_off.png"), "--view", "falsecolor", "--legend", "off",
              "--backend", "cpu")
check(a is None or a.shape == (512, 1024, 3), "--legend off: not the picture alone")

# The exposure view: value * 2^EV + offset (the loader's values), sRGB-encoded.
rgb, _ = htpy.read_hdr(venice)
a, _ = export(venice, os.path.join(tmp, "ex.png"), "--view", "exposure", "--exposure", "1.5",
              "--offset", "0.02", "--backend", "cpu")
if a is not None:
    v = np.clip(rgb.astype(np.float64) * 2 ** 1.5 + 0.02, 0, 1)
    e = np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)
    d = np.abs(a - np.floor(e * 255 + 0.5))
    check(d.max() <= 1, f"exposure view: {d.max()} levels from the formula")

for bad in (["--format", "hdr", "-o", os.path.join(tmp, "x.hdr")],
            ["--depth", "16", "-o", os.path.join(tmp, "x.png")]):
    r = subprocess.run([binary, "export", venice, "--view", "falsecolor", *bad],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "--view falsecolor" in r.stderr, f"{bad}: {r.returncode} {r.stderr!r}")

htpy.finish("test_cli_views")
