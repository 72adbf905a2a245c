"""The Metadata section, in a real window under Xvfb: closed at first; a click on its header
opens it, and it then lists every entry `hdrtone stats --json` gives as "metadata" for the same
file (key and value, in the file's order), the owner's copyright and the comments of
ColorCodedLevels.exr among them. A file with none says so."""
import json
import os
import subprocess
import tempfile
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402
check = xwin.check
image = xwin.sample_or_skip("ColorCodedLevels.exr")


def open_metadata(v):
    """Scrolls the dock (the wheel over it) until the Metadata header is in the window, then
    clicks it."""
    vp = v.layout()["viewport"]
    for _ in range(10):
        x, y, w, h = v.layout()["section_Metadata"]
        if y + h < vp[1] + vp[3]:
            break
        xwin.xdo("mousemove", "--window", v.wid, x + w // 2, vp[1] + vp[3] // 2)
        xwin.xdo("click", "--repeat", "10", "--window", v.wid, 5)
        v.settle(0.5)
    v.click(x + w // 2, y + h // 2)


stats = subprocess.run([os.environ["HT_BIN"], "stats", image, "--json"], capture_output=True,
                       text=True, check=True)
want = ["%s = %s" % kv for kv in json.loads(stats.stdout)["metadata"].items()]
check(any("Industrial Light & Magic" in w for w in want), "stats gives the owner: %s" % want)

v = xwin.Viewer(image, "--window", "1000x900")
try:
    check(v.notes("meta") == [], "the section is closed at first")
    open_metadata(v)
    got = v.notes("meta")
    check(got == want, "the section lists stats' metadata:\n  got  %s\n  want %s" % (got, want))
finally:
    v.close()

# A PFM has no metadata: the section says so.
tmp = tempfile.mkdtemp()
pfm = os.path.join(tmp, "plain.pfm")
xwin.write_pfm(pfm, np.full((3, 4, 3), 0.5, dtype=np.float32))
v = xwin.Viewer(pfm, "--window", "800x600")
try:
    open_metadata(v)
    check(v.notes("meta") == [] and v.notes("meta_none") == ["the file gives none"],
          "a PFM: no entries, and the section says so")
finally:
    v.close()
sys.exit(1 if xwin.fails else 0)
