#!/usr/bin/env python3
"""`hdrtone stats --region X0,Y0,X1,Y1 --json` against numpy on real images (venice_sunset_1k.hdr
decoded here, comp_rle.exr decompressed here): pixel count, luminance min, max, mean, median and
log-average in the file's values and in cd/m^2 (Radiance: 179 x Radiance's weights), the
histogram's total; several files give JSON Lines; bad rectangles are refused clearly."""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np

binary = os.environ["HT_BIN"]
samples = htpy.samples_or_skip()
check = htpy.check


def run(args):
    return subprocess.run([binary] + args, capture_output=True, text=True, timeout=120)


def expect(y):
    """The figures of luminances Y (float64) as stats defines them: over finite Y > 0."""
    y = y[np.isfinite(y) & (y > 0)]
    return {"min": y.min(), "max": y.max(), "mean": y.mean(), "median": np.median(y),
            "log_average": np.exp(np.log(y).mean())}, len(y)


venice = os.path.join(samples, "venice_sunset_1k.hdr")
rle = os.path.join(samples, "comp_rle.exr")
rgb_v, _ = htpy.read_hdr(venice)
ch = htpy.read_exr_rle(rle)
rgb_r = np.stack([ch["R"], ch["G"], ch["B"]], axis=-1)
rec709 = np.array([0.2126, 0.7152, 0.0722])
radiance = np.array([0.265105814, 0.670105815, 0.064788356])
cases = [(venice, rgb_v, radiance, 179.0, "radiance", [600, 230, 640, 260]),
         (venice, rgb_v, radiance, 179.0, "radiance", [0, 0, 1023, 511]),
         (rle, rgb_r, rec709, 1.0, "relative", [100, 200, 300, 260]),
         (rle, rgb_r, rec709, 1.0, "relative", [5, 5, 5, 5])]
for path, rgb, w, scale, rule, rect in cases:
    r = run(["stats", path, "--json", "--backend", "cpu", "--region", ",".join(map(str, rect))])
    check(r.returncode == 0, f"{path} {rect}: exit {r.returncode}: {r.stderr}")
    if r.returncode:
        continue
    j = json.loads(r.stdout)
    g = j["region"]
    x0, y0, x1, y1 = rect
    sub = rgb[y0:y1 + 1, x0:x1 + 1].astype(np.float64)
    check(g["rect"] == rect and g["pixels"] == (x1 - x0 + 1) * (y1 - y0 + 1), f"{rect}: {g}")
    check(j["units"]["rule"] == rule and j["units"]["scale"] == scale, f"{path}: {j['units']}")
    for key, y in (("luminance", sub @ rec709), ("luminance_cd_m2", scale * (sub @ w))):
        want, n = expect(y)
        if key == "luminance":
            check(g["counted"] == n, f"{path} {rect}: counted {g['counted']} != {n}")
        for k, v in want.items():
            check(abs(g[key][k] - v) <= 1e-7 * abs(v),
                  f"{path} {rect} {key}.{k}: {g[key][k]} != {v}")
    hist = g["histogram"]
    check(sum(hist["counts"]) == expect(scale * (sub @ w))[1], f"{rect}: histogram total")
    ln_min = np.log(g["luminance_cd_m2"]["min"])
    check(abs(hist["ln_min"] - ln_min) < 1e-7 * max(1, abs(ln_min)),
          f"{rect}: ln_min")
    if rect == [0, 0, 1023, 511]:   # the whole picture: luminance_cd_m2 equals the region's
        check(j["luminance_cd_m2"] == g["luminance_cd_m2"], "whole-image region != luminance_cd_m2")

# Several inputs: one JSON object per line, in order, each with its own region.
r = run(["stats", venice, rle, "--json", "--backend", "cpu", "--region", "1,2,3,4"])
lines = r.stdout.strip().split("\n")
check(r.returncode == 0 and len(lines) == 2, f"two inputs: {len(lines)} lines, exit {r.returncode}")
check([json.loads(l)["file"] for l in lines] == [venice, rle], "two inputs: files in order")

# Bad rectangles: usage errors (2) for malformed ones (swapped corners too, as
# docs/lighting.md says), errors naming the file (1) outside.
for bad, code, words in (("1,2,3", 2, "four integers"), ("a,b,c,d", 2, "four integers"),
                         ("5,5,4,6", 2, "X0 > X1"), ("0,0,1024,10", 1, "outside"),
                         ("-1,0,3,3", 1, "outside")):
    r = run(["stats", venice, "--backend", "cpu", "--region", bad])
    check(r.returncode == code and words in r.stderr and r.stdout == "",
          f"--region {bad}: exit {r.returncode}, {r.stderr!r}")
    check(code == 2 or venice in r.stderr, f"--region {bad}: no file named: {r.stderr!r}")

htpy.finish("test_cli_region")
