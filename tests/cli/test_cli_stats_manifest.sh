#!/usr/bin/env bash
# `hdrtone stats --json` against exr-samples/MANIFEST.tsv, for both backends.
#
# Counts exact; luminance min/max/mean to 1e-5 relative (1e-3 for lossy B44/DWA and
# luminance/chroma files); sizes and windows exact. The GPU and CPU curves agree to 2e-3 in log10.
# Every file must load; only a build without the OpenEXR library (HT_HAVE_OPENEXR unset) may
# refuse the ones that need it, cleanly and saying so.
exec python3 - <<'PY'
import json, math, os, re, subprocess, sys

binary = os.environ["HT_BIN"]
shared = os.environ.get("HT_SHARED", "")
samples = os.path.join(shared, "exr-samples")
if not os.path.isdir(samples):
    print("skipped: no", samples)
    sys.exit(77)

failures = []
def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg, file=sys.stderr)

def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)

def window(s):
    return [int(v) for v in re.findall(r"-?\d+", s)]

def run(args):
    return subprocess.run([binary] + args, capture_output=True, text=True, timeout=120)

rows = []
with open(os.path.join(samples, "MANIFEST.tsv")) as f:
    header = f.readline().rstrip("\n").split("\t")
    for line in f:
        if line.strip():
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))

have_openexr = os.environ.get("HT_HAVE_OPENEXR") == "1"
gpu_ok = None
for row in rows:
    name = row["file"]
    path = os.path.join(samples, name)
    # What only the OpenEXR library decodes: codecs tinyexr lacks, subsampled chroma.
    needs_lib = (bool(re.search(r"PXR24|B44|DWA", row["compression"]))
                 or "@" in row["channels_pixel_types"])
    lossy = bool(re.search(r"B44|DWA", row["compression"])) or "@" in row["channels_pixel_types"]
    tol = 1e-3 if lossy else 1e-5
    cpu = run(["stats", path, "--json", "--backend", "cpu"])
    if needs_lib and not have_openexr:
        check(cpu.returncode != 0, f"{name}: unreadable file accepted")
        check(name in cpu.stderr, f"{name}: message does not name the file: {cpu.stderr!r}")
        check("OpenEXR library" in cpu.stderr, f"{name}: message lacks the reason: {cpu.stderr!r}")
        check(cpu.stdout == "", f"{name}: output on failure")
        continue
    check(cpu.returncode == 0, f"{name}: stats failed: {cpu.stderr}")
    if cpu.returncode != 0:
        continue
    s = json.loads(cpu.stdout)
    w, h = (int(v) for v in row["width_x_height"].split("x"))
    check((s["width"], s["height"]) == (w, h), f"{name}: size {s['width']}x{s['height']}")
    check(s["data_window"] == window(row["data_window"]), f"{name}: data window {s['data_window']}")
    check(s["display_window"] == window(row["display_window"]),
          f"{name}: display window {s['display_window']}")
    for key, col in (("total", "pixels"), ("finite", "finite_pixels"),
                     ("positive_luminance", "Y_pos_pixels")):
        check(s["pixels"][key] == int(row[col]),
              f"{name}: pixels.{key} {s['pixels'][key]} != {row[col]}")
    for key, col in (("nan", "nan_values"), ("inf", "inf_values"), ("negative", "neg_values")):
        check(s["values"][key] == int(row[col]),
              f"{name}: values.{key} {s['values'][key]} != {row[col]}")
    for key, col in (("min", "Y_min"), ("max", "Y_max"), ("mean", "Y_mean")):
        check(rel(s["luminance"][key], float(row[col])) <= tol,
              f"{name}: luminance.{key} {s['luminance'][key]} != {row[col]}")
    check(len(s["curve"]) == s["histogram"]["bins"] == len(s["histogram"]["counts"]) == 100,
          f"{name}: curve/histogram sizes")
    check(sum(s["histogram"]["counts"]) == s["tonemap"]["counted"], f"{name}: histogram total")

    gpu = run(["stats", path, "--json", "--backend", "gpu"])
    if gpu.returncode != 0 and "no GPU" in gpu.stderr:
        gpu_ok = False
        continue
    check(gpu.returncode == 0, f"{name}: GPU stats failed: {gpu.stderr}")
    if gpu.returncode == 0:
        g = json.loads(gpu.stdout)
        gpu_ok = True
        check(g["backend"] == "gpu" and s["backend"] == "cpu", f"{name}: backend field")
        # The default, auto: the CPU on Mesa's software rasterisers, else the GPU.
        a = run(["stats", path, "--json"])
        software = any(k in g["renderer"] for k in ("llvmpipe", "softpipe", "swrast"))
        auto = "cpu" if software else "gpu"
        check(a.returncode == 0 and json.loads(a.stdout)["backend"] == auto,
              f"{name}: --backend auto on {g['renderer']}: {a.stdout[-80:]!r} {a.stderr!r}")
        check(g["tonemap"]["mapping"] == s["tonemap"]["mapping"], f"{name}: mapping differs")
        worst = max(abs(math.log10(a[1]) - math.log10(b[1]))
                    for a, b in zip(g["curve"], s["curve"]))
        check(worst <= 2e-3, f"{name}: GPU and CPU curves differ by {worst:.3g} log10")

# Parts, layers and the pixel limit reach the loader from the command line.
mp = os.path.join(samples, "multipart.0001.exr")
r = run(["stats", mp, "--json", "--backend", "cpu", "--part", "forward_left", "--layer", "forward"])
check(r.returncode == 0, f"--part/--layer: {r.stderr}")
if r.returncode == 0:
    s = json.loads(r.stdout)
    check((s["part"], s["part_name"], s["layer"]) == (2, "forward_left", "forward"),
          f"--part/--layer: shown {s['part']} {s['part_name']!r} {s['layer']!r}")
    check(len(s["parts"]) == 10 and s["parts"][7]["layers"] == ["disparityL"],
          f"parts listing: {s['parts'][:2]}")
r = run(["stats", mp, "--backend", "cpu", "--part", "99"])
check(r.returncode != 0 and "no part '99'" in r.stderr and r.stdout == "",
      f"--part 99: {r.stderr!r}")
r = run(["export", mp, "-o", os.path.join(__import__("tempfile").gettempdir(), "ht_maxpx.png"),
         "--backend", "cpu", "--max-pixels", "1000"])
check(r.returncode != 0 and "limit of 1000 pixels" in r.stderr, f"--max-pixels: {r.stderr!r}")

if gpu_ok is False:
    print("note: no headless GPU here, CPU backend only")
print(f"{len(rows)} files, {len(failures)} failures")
sys.exit(1 if failures else 0)
PY
