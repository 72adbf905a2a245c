"""Not a test (ctest runs test_*): times an 8K file's load in a real window under Xvfb, two
binaries alternated, the median of ROUNDS runs each: key Down (the file, on a worker) -> the
first 'loading: big.exr N %' note (HT_TEST_LAYOUT), -> the first 'preview:' note (the first
picture of the rows landed) and -> 'shown: 7680x4320' (the whole image).
  /usr/bin/python3 tests/viewer/bench_load_progress.py BASE_BIN NEW_BIN MAKE_BENCH_EXR ROUNDS COMP...
(BENCHMARKS.md, "The preview while loading", "The preview picture while loading")."""
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
    """Seconds to the first share, to the first picture, to the whole image, of one load."""
    v = xwin.Viewer(small, big, "--window", "960x600", "--msaa", "1")
    first = pic = whole = None
    try:
        t0 = time.time()
        xwin.xdo("key", "--window", v.wid, "Down")
        while time.time() < t0 + 60 and whole is None:
            with open(v.layout_path) as f:
                text = f.read()
            t = time.time() - t0
            if first is None and re.search(r"loading: big\.exr \d+ %", text):
                first = t
            if pic is None and "\npreview: " in "\n" + text:
                pic = t
            if "shown: 7680x4320" in text:
                whole = t
            time.sleep(0.005)
    finally:
        v.close()
    return first, pic, whole


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
            med = ["%.3f" % statistics.median(t) if t else "-"
                   for t in ([x[i] for x in r if x[i] is not None] for i in (0, 1))]
            print("%s %s: first share %s s, first picture %s s, whole %.3f s (median of %d; "
                  "least %.3f: %s)" % (comp, name, med[0], med[1],
                                       statistics.median(x[2] for x in r), rounds,
                                       min(x[2] for x in r), " ".join("%.3f" % x[2] for x in r)))


main()
