"""Not a test (ctest runs test_*): times an 8K file's load in a real window under Xvfb, two
binaries alternated, the median of ROUNDS runs each: key Down (the file, on a worker) -> the
first 'loading: big.exr N %' note (HT_TEST_LAYOUT) and -> 'shown: 7680x4320' (the whole image).
  /usr/bin/python3 tests/viewer/bench_load_progress.py BASE_BIN NEW_BIN MAKE_BENCH_EXR ROUNDS COMP...
(BENCHMARKS.md, "The preview while loading")."""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one(small, big):
    """(seconds to the first share, seconds to the whole image) of one load."""
    v = xwin.Viewer(small, big, "--window", "960x600", "--msaa", "1")
    first = whole = None
    try:
        t0 = time.time()
        xwin.xdo("key", "--window", v.wid, "Down")
        while time.time() < t0 + 60 and whole is None:
            with open(v.layout_path) as f:
                text = f.read()
            t = time.time() - t0
            if first is None and re.search(r"loading: big\.exr \d+ %", text):
                first = t
            if "shown: 7680x4320" in text:
                whole = t
            time.sleep(0.005)
    finally:
        v.close()
    return first, whole


def main():
    base, new, maker, rounds, comps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), \
        sys.argv[5:]
    tmp = tempfile.mkdtemp()
    small, big = os.path.join(tmp, "a.pfm"), os.path.join(tmp, "big.exr")
    xwin.write_pfm(small, np.ones((40, 60, 3), np.float32))
    for comp in comps:
        subprocess.run([maker, os.path.join(SRC, "assets", "default.exr"), big, "7680", "4320",
                        comp], check=True, capture_output=True)
        runs = {}
        for _ in range(rounds):
            for name, b in (("base", base), ("new", new)):
                os.environ["HT_BIN"] = b
                runs.setdefault(name, []).append(one(small, big))
        for name, r in runs.items():
            firsts = [f for f, _ in r if f is not None]
            print("%s %s: first share %s s, whole %.3f s (median of %d: %s)"
                  % (comp, name, "%.3f" % statistics.median(firsts) if firsts else "-",
                     statistics.median(w for _, w in r), rounds,
                     " ".join("%.3f" % w for _, w in r)))


main()
