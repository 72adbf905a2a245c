"""hdrtone compare's plain metrics against numpy on synthetic pairs (HDR as PFM, LDR as PNG),
--fail-above's exit codes, the errors for pairs of different sizes or kinds, and -o's files."""
import json
import os
import subprocess
import sys
import tempfile

from compare_testlib import Image, np

BIN = os.environ["HT_BIN"]
backend = os.environ.get("HT_COMPARE_BACKEND", "cpu")
failures = []


def fail(msg):
    failures.append(msg)


def write_pfm(path, rgb):
    h, w, _ = rgb.shape
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(np.ascontiguousarray(rgb[::-1], "<f4").tobytes())


def run(*args):
    return subprocess.run([BIN, "compare", *args, "--backend", backend], capture_output=True,
                          text=True)


def metrics(ref, test):
    """tev's definitions, averaged over the pixels and R, G, B."""
    r, t = ref.astype(np.float64), test.astype(np.float64)
    d = t - r
    mse = (d * d).mean()
    return {"mse": mse, "rmse": np.sqrt(mse), "psnr": 10 * np.log10(1 / mse),
            "relmse": (d * d / (r * r + 0.01)).mean(), "mae": abs(d).mean()}


def check_metrics(name, got, want, rel):
    for k, v in want.items():
        if not abs(got[k] - v) <= rel * abs(v) + 1e-12:
            fail("%s: %s %.9g, numpy %.9g" % (name, k, got[k], v))


def srgb_to_linear(v):
    v = v.astype(np.float32) / np.float32(255)
    return np.where(v <= 0.04045, v / np.float32(12.92),
                    ((v + np.float32(0.055)) / np.float32(1.055)) ** np.float32(2.4))


rng = np.random.default_rng(7)
with tempfile.TemporaryDirectory() as tmp:
    p = lambda n: os.path.join(tmp, n)
    # HDR: log-uniform values over 1e-3..1e2, the test with multiplicative noise and an offset.
    ref = np.exp(rng.uniform(np.log(1e-3), np.log(1e2), (37, 53, 3))).astype(np.float32)
    test = (ref * (1 + 0.2 * rng.standard_normal(ref.shape)) + 0.01).astype(np.float32)
    write_pfm(p("r.pfm"), ref)
    write_pfm(p("t.pfm"), test)
    r = run(p("r.pfm"), p("t.pfm"), "--json")
    if r.returncode != 0:
        fail("HDR pair: exit %d %s" % (r.returncode, r.stderr))
    else:
        got = json.loads(r.stdout)
        check_metrics("HDR", got, metrics(ref, test), 1e-5)
        if got["mode"] != "hdr" or not 0 < got["mean"] < 1:
            fail("HDR: mode %s mean %s" % (got["mode"], got["mean"]))
        hdr_mean, hdr_mae = got["mean"], got["mae"]
        # --fail-above: the metric's value against X, both ways.
        for metric, value in (("flip", hdr_mean), ("mae", hdr_mae)):
            for x, want in ((value * 1.01, 0), (value * 0.99, 1)):
                rc = run(p("r.pfm"), p("t.pfm"), "--metric", metric, "--fail-above",
                         repr(x)).returncode
                if rc != want:
                    fail("--metric %s --fail-above %g (value %g): exit %d" % (metric, x, value,
                                                                               rc))
        # The tone mappers of HDR-FLIP: each its own exposures and mean.
        means = {"aces": hdr_mean}
        for tm in ("hable", "reinhard"):
            r = run(p("r.pfm"), p("t.pfm"), "--json", "--tonemapper", tm)
            means[tm] = json.loads(r.stdout)["mean"] if r.returncode == 0 else -1
        if len(set(means.values())) != 3 or not all(0 < m < 1 for m in means.values()):
            fail("--tonemapper: means %s" % means)
        psnr = got["psnr"]
        for x, want in ((psnr - 1, 0), (psnr + 1, 1)):   # PSNR: worse is lower
            rc = run(p("r.pfm"), p("t.pfm"), "--metric", "psnr", "--fail-above",
                     repr(x)).returncode
            if rc != want:
                fail("psnr %g --fail-above %g: exit %d" % (psnr, x, rc))
    # LDR: 8-bit sRGB PNGs; metrics on the decoded linear values.
    a = rng.integers(0, 256, (41, 29, 3), dtype=np.uint8)
    b = np.clip(a.astype(int) + rng.integers(-20, 21, a.shape), 0, 255).astype(np.uint8)
    Image.fromarray(a).save(p("a.png"))
    Image.fromarray(b).save(p("b.png"))
    r = run(p("a.png"), p("b.png"), "--json", "--metric", "mse", "-o", p("sq.exr"))
    if r.returncode != 0:
        fail("LDR pair: exit %d %s" % (r.returncode, r.stderr))
    else:
        got = json.loads(r.stdout)
        check_metrics("LDR", got, metrics(srgb_to_linear(a), srgb_to_linear(b)), 1e-5)
        if got["mode"] != "ldr" or "start_exposure" in got:
            fail("LDR: %s" % r.stdout)
        with open(p("sq.exr"), "rb") as f:
            if f.read(4) != b"\x76\x2f\x31\x01":
                fail("-o sq.exr is not OpenEXR")
    # JPEG read (stb_image, as FLIP's tool), and a 16-bit PNG: v * 257 / 65535 = v / 255.
    yy, xx = np.mgrid[0:48, 0:64]
    smooth = np.stack([xx * 4, yy * 5, (xx + yy) * 2], -1).astype(np.uint8)
    Image.fromarray(smooth).save(p("s.png"))
    Image.fromarray(smooth).save(p("s.jpg"), quality=90)
    r = run(p("s.png"), p("s.jpg"), "--json")
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    if got.get("mode") != "ldr" or not 0 < got.get("mae", -1) < 0.05:
        fail("JPEG: exit %d, %s %s" % (r.returncode, r.stdout, r.stderr))
    grey = a[:, :, 1]
    Image.fromarray(grey).save(p("g8.png"))
    Image.fromarray(grey.astype(np.uint16) * 257).save(p("g16.png"))
    r = run(p("g8.png"), p("g16.png"), "--json")
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    if got.get("mse") != 0 or got.get("max") != 0:
        fail("16-bit PNG against 8-bit: exit %d, %s %s" % (r.returncode, r.stdout, r.stderr))
    # Identical pictures: FLIP 0 everywhere, the magma map's first colour, PSNR null.
    r = run(p("a.png"), p("a.png"), "--json", "-o", p("same.png"))
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    if got.get("mean") != 0 or got.get("psnr", 0) is not None:
        fail("identical pair: %s %s" % (r.stdout, r.stderr))
    else:
        px = np.asarray(Image.open(p("same.png")).convert("RGB"))
        if not (px == [0, 0, 4]).all():
            fail("identical pair: magma map not magma[0] (0, 0, 4): %s" % px[0, 0])
    # Refusals: exit 1 (2 for usage) with a message that says what and names the file.
    write_pfm(p("small.pfm"), ref[:20])
    write_pfm(p("black.pfm"), np.zeros_like(ref))
    with open(p("bad.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    for what, args, code, words in (
            ("size mismatch", ("r.pfm", "small.pfm"), 1, ("different sizes", "small.pfm")),
            ("HDR against LDR", ("r.pfm", "a.png"), 1, ("HDR", "a.png")),
            ("one file", ("r.pfm",), 2, ("REF",)),
            ("corrupt PNG", ("a.png", "bad.png"), 1, ("bad.png",)),
            ("black HDR reference", ("black.pfm", "r.pfm"), 1, ("r.pfm", "luminance")),
            ("missing test", ("r.pfm", "missing.exr"), 1, ("missing.exr",))):
        r = run(*[p(a) for a in args])
        if r.returncode != code or not all(w in r.stderr for w in words):
            fail("%s: exit %d, %r" % (what, r.returncode, r.stderr))

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
