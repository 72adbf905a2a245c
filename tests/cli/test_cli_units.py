#!/usr/bin/env python3
"""The units of stats (issue 23): Radiance pictures with and without EXPOSURE lines (179 lm/W x
Radiance's weights, every EXPOSURE dividing), an OpenEXR with whiteLuminance, one without
(relative), and --scale overriding either; `luminance` stays in the file's values (Rec. 709,
after EXPOSURE as the loader gives them), `luminance_cd_m2` is in cd/m^2. Small files made
here."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy
htpy.need_numpy()
import numpy as np

binary = os.environ["HT_BIN"]
check = htpy.check


def stats(path, *extra):
    r = subprocess.run([binary, "stats", path, "--json", "--backend", "cpu", *extra],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"{path} {extra}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout) if r.returncode == 0 else None


def close(a, b, tol=2e-7):
    return abs(a - b) <= tol * max(abs(b), 1e-30)


rec709 = np.array([0.2126, 0.7152, 0.0722])
radiance = np.array([0.265105814, 0.670105815, 0.064788356])
rng = np.random.default_rng(7)
rgb = (10 ** rng.uniform(-2, 2, (5, 9, 3))).astype(np.float32)
tmp = tempfile.mkdtemp()

for exposures in ((), (2.0,), (2.0, 0.125)):
    path = os.path.join(tmp, "e%d.hdr" % len(exposures))
    htpy.write_hdr(path, rgb, exposures)
    stored, product = htpy.read_hdr(path)
    check(product == float(np.prod(exposures)), f"{path}: EXPOSURE product {product}")
    j = stats(path)
    if not j:
        continue
    values = stored.astype(np.float64) / product   # what the loader gives: EXPOSURE divided out
    check(j["units"] == {"rule": "radiance", "scale": 179, "exposure": product},
          f"{path}: {j['units']}")
    check(close(j["luminance"]["max"], (values @ rec709).max()), f"{path}: luminance.max")
    cd = 179 * (values @ radiance)
    for k, v in (("min", cd.min()), ("max", cd.max()), ("mean", cd.mean()),
                 ("median", np.median(cd)), ("log_average", np.exp(np.log(cd).mean()))):
        check(close(j["luminance_cd_m2"][k], v),
              f"{path}: cd/m^2 {k} {j['luminance_cd_m2'][k]} != {v}")
    j = stats(path, "--scale", "3")
    check(j and j["units"]["rule"] == "user" and j["units"]["scale"] == 3 and
          close(j["luminance_cd_m2"]["max"], 3 * (values @ radiance).max()), f"{path}: --scale 3")

for white in (None, 250.0):
    path = os.path.join(tmp, "w%s.exr" % white)
    htpy.write_exr(path, rgb, white)
    j = stats(path)
    if not j:
        continue
    rule, scale = ("relative", 1) if white is None else ("white_luminance", white)
    check(j["units"]["rule"] == rule and j["units"]["scale"] == scale, f"{path}: {j['units']}")
    y = rgb.astype(np.float64) @ rec709
    check(close(j["luminance"]["mean"], y.mean()), f"{path}: luminance.mean")
    check(close(j["luminance_cd_m2"]["mean"], scale * y.mean()), f"{path}: cd/m^2 mean")
    r = subprocess.run([binary, "stats", path, "--backend", "cpu"], capture_output=True, text=True)
    line = [l for l in r.stdout.splitlines() if l.startswith("units")]
    check(line and ("whiteLuminance" if white else "relative") in line[0], f"{path}: text {line}")

htpy.finish("test_cli_units")
