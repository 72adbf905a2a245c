"""Sessions hold the state beyond the settings' options, in a window under Xvfb: the part of a
multi-part EXR (E three times: part 3), the human-vision switches (Shift+V, Shift+C), the OCIO
view (--view ocio --ocio-view), the ceiling and the region. A saved session (with a region
added) reopened and saved again is the same JSON, and the reopened window shows that state
(status: the part, the switches; the Region section: the rectangle and its statistics, which
equal `hdrtone stats --region` of the same part)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
check = xwin.check
BIN = os.environ["HT_BIN"]
image = xwin.sample_or_skip("multipart.0001.exr")
tmp = tempfile.mkdtemp()
os.chdir(tmp)


def view(*args):
    """The viewer's screenshot run: its stdout lines and the layout hook's text lines."""
    layout = os.path.join(tmp, "layout")
    r = subprocess.run([BIN, "view", "--window", "1280x900", "--screenshot", "s.png", *args],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, HT_TEST_LAYOUT=layout))
    check(r.returncode == 0, "view %s: exit %d %s" % (" ".join(args), r.returncode,
                                                      r.stderr.strip()[-300:]))
    return r.stdout.splitlines(), open(layout).read().splitlines()


view(image, "--view", "ocio", "--ocio-view", "Un-tone-mapped", "--ceiling", "none",
     "--keys", "e e e shift+v shift+c ctrl+shift+s")
saved = json.load(open("hdrtone-session.json"))
check(saved.get("part") == 3, "the part is saved: %s" % saved.get("part"))
check(saved.get("human") == {"veil": True, "acuity": False, "color_loss": True},
      "the human-vision switches are saved: %s" % saved.get("human"))
settings = saved.get("settings", [])
pairs = dict(zip(settings[::2], settings[1::2]))
check(pairs.get("--ocio-view") == "Un-tone-mapped" and pairs.get("--view") == "ocio" and
      pairs.get("--ceiling") == "none", "the OCIO view and the ceiling are saved: %s" % pairs)

saved["region"] = [10, 20, 60, 80]
json.dump(saved, open("again.json", "w"), indent=1)
out, notes = view("--session", "again.json", "--keys", "ctrl+shift+s")
again = json.load(open("again.json"))
check(again == saved, "reopened and saved again, the session is the same:\n  %s\n  %s"
      % (saved, again))
status = [l for l in out if l.startswith("status: ")]
check(any("part 3 of 10" in l for l in status), "the window shows part 3: %s" % status[:3])
check(any("veil" in l and "colour loss" in l and "acuity off" in l for l in status),
      "the window has veil and colour loss on, acuity off: %s"
      % [l for l in status if "human" in l])
region = [l[len("region: "):] for l in notes if l.startswith("region: ")]
r = subprocess.run([BIN, "stats", image, "--part", "3", "--region", "10,20,60,80", "--json"],
                   capture_output=True, text=True, check=True)
want = json.loads(r.stdout)["region"]
check(region and "10,20" in region[0] and "60,80" in region[0],
      "the Region section shows the rectangle: %s" % region)
text = " ".join(region)
check("%.4g" % want["luminance"]["mean"] in text or "%.3g" % want["luminance"]["mean"] in text,
      "its mean luminance is stats --region's %.4g: %s" % (want["luminance"]["mean"], region))
sys.exit(1 if xwin.fails else 0)
