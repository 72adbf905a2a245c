"""Human vision with --hdr works as in SDR (issue 30): export --hdr pq with --veil, --acuity and
--color-loss writes ST 2084 of the same tone mapping's linear display values that the .pfm
export with the same options holds (x Ldmax), within one 16-bit step, decoded here with the
ST 2084 formula in numpy; the human-vision options change the picture (so the comparison could
fail), on the CPU reference and on the GPU (within one code of each other on 99.9 % of the
values)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_testlib import np  # noqa: E402  (re-runs under Debian's python3)
import htpy  # noqa: E402
from htpy import check  # noqa: E402

BIN = os.environ.get("HT_BIN", "hdrtone")
samples = htpy.samples_or_skip()
tmp = os.environ.get("KEEP") or tempfile.mkdtemp(prefix="ht_hdrhuman_")
src = os.path.join(samples, "Desk.exr")
HUMAN = ["--veil", "--acuity", "--color-loss"]
LDMAX = 1000.0


def export(name, *opts):
    out = os.path.join(tmp, name)
    r = subprocess.run([BIN, "export", src, "-o", out, "--ldmax", str(LDMAX), "--drange", "1e4",
                        "--display-space", "rec2020"] + [str(o) for o in opts],
                       capture_output=True, text=True)
    check(r.returncode == 0, "export %s %s: %s" % (name, opts, r.stderr))
    return out if r.returncode == 0 else None


def pfm(path):
    d = open(path, "rb").read()
    head = d.split(b"\n", 3)
    w, h = map(int, head[1].split())
    return np.frombuffer(head[3], dtype="<f4").reshape(h, w, 3)[::-1].astype(np.float64)


def pq_step(codes):
    return htpy.pq_decode((codes + 1) / 65535) - htpy.pq_decode(codes / 65535)


pq = export("h.png", "--hdr", "pq", "--backend", "cpu", *HUMAN)
lin = export("h.pfm", *HUMAN)
plain = export("p.png", "--hdr", "pq", "--backend", "cpu")
if pq and lin and plain:
    q = htpy.png_codes(pq)
    want = np.clip(pfm(lin), 0, 1) * LDMAX
    got = htpy.pq_decode(q / 65535)
    d = np.abs(got - want) - pq_step(np.maximum(q - 1, 0))
    check(np.all(d <= 1e-6 * LDMAX), "--hdr pq %s: %.4g cd/m^2 beyond one 16-bit step from the "
          "linear output x Ldmax" % (" ".join(HUMAN), d.max()))
    moved = np.mean(htpy.png_codes(plain) != q)
    check(moved > 0.05, "the human-vision options change %.3f of the PQ values" % moved)
gpu = export("g.png", "--hdr", "pq", "--backend", "gpu", *HUMAN)
if pq and gpu:
    d = np.abs(htpy.png_codes(gpu) - htpy.png_codes(pq))
    check(np.mean(d <= 1) >= 0.999, "GPU: %.5f of the values within one code of the CPU's "
          "(max %d)" % (np.mean(d <= 1), d.max()))
htpy.finish("test_hdr_human")
