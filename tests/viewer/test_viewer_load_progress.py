"""The status while a large file loads (issue 32): an 8K PIZ OpenEXR opened in a real window
under Xvfb says how far its decode is ("loading: big.exr 45 %", the HT_TEST_LAYOUT note, from
the loader's image_progress) before the image shows: at least one share between 1 and 99 %,
the shares growing, then the whole image ("shown: 7680x4320"). main's viewer said only
"loading: big.exr" (no share) and fails here."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()

SRC = os.environ["HT_SOURCE_DIR"]
DEFAULT = os.path.join(SRC, "assets", "default.exr")
check, fails, write_pfm = xwin.check, xwin.fails, xwin.write_pfm


def main():
    import numpy as np
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    small, big = os.path.join(tmp, "a.pfm"), os.path.join(tmp, "big.exr")
    write_pfm(small, np.ones((40, 60, 3), np.float32))
    r = subprocess.run([os.environ["HT_MAKE_BENCH_EXR"], DEFAULT, big, "7680", "4320", "piz"],
                       capture_output=True, text=True)
    if r.returncode:
        check(False, "make_bench_exr: " + r.stderr)
        sys.exit(1)
    v = xwin.Viewer(small, big, "--window", "960x600", "--msaa", "1")
    shares, shown = [], False
    try:
        xwin.xdo("key", "--window", v.wid, "Down")   # the 8K file, loaded on a worker
        end = time.time() + 60
        while time.time() < end and not shown:
            with open(v.layout_path) as f:
                text = f.read()
            m = re.search(r"loading: big\.exr (\d+) %", text)
            if m and (not shares or shares[-1] != int(m.group(1))):
                shares.append(int(m.group(1)))
            shown = "shown: 7680x4320" in text
            time.sleep(0.01)
    finally:
        v.close()
    print("shares seen while loading:", shares)
    check(any(0 < s < 100 for s in shares), "a share between 1 and 99 %% showed (%s)" % shares)
    check(shares == sorted(shares), "the shares grew (%s)" % shares)
    check(shown, "then the image showed (shown: 7680x4320)")
    sys.exit(1 if fails else 0)


main()
