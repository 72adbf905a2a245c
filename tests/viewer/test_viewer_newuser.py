"""What a new user ran into, each in a real window under Xvfb driven by xdotool:
  1. the help's search (F1, or ?) gets every letter typed after it opened ("wipe", not "ipe"),
     and ? itself is not typed;
  2. Enter in a typed field lets the keyboard go: the next shortcut key (A) acts;
  3. the Pixel section keeps its height when the cursor leaves the picture (nothing below it
     moves under the pointer);
  4. at --ui-scale 2 a menu longer than the window scrolls to its last entry;
  5. menu entries are short labels without Markdown backticks, inside the window; the whole
     sentence shows as the entry's tooltip;
  6. at 640x400 the dock leaves a 16:9 picture at least 35 % of the window, and at 800x500 it
     takes less than 40 % of the width;
  7. an 8K file decodes off the UI thread: a key pressed while it loads (F1, the help) takes
     effect before the load ends, and the image shows when it does."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
import numpy as np  # noqa: E402

BIN = os.environ["HT_BIN"]
SRC = os.environ["HT_SOURCE_DIR"]
DEFAULT = os.path.join(SRC, "assets", "default.exr")
check, fails, write_pfm = xwin.check, xwin.fails, xwin.write_pfm


def help_case(img):
    v = xwin.Viewer(img, "--window", "960x600", "--msaa", "1")
    try:
        for opener in ("F1", "question"):
            v.key(opener)
            xwin.xdo("type", "--window", v.wid, "wipe")
            v.settle()
            got = v.notes("help_search")
            shown = [n for n in v.layout() if n.startswith("help_")]
            check(got == ["wipe"] and "help_compare.wipe_axis" in shown,
                  "%s then 'wipe': the search reads %s and shows %s" % (opener, got, shown))
            v.key("Escape")
    finally:
        v.close()


def enter_case(img):
    v = xwin.Viewer(img, "--window", "960x1000", "--msaa", "1")
    try:
        x, y, w, h = v.layout()["slider_Lmin"]
        v.click(x + w + 40, y + h // 2)   # the typed field right of the slider
        v.key("ctrl+a")
        xwin.xdo("type", "--window", v.wid, "0.01")
        v.key("Return")
        typed = v.notes("auto_range")
        v.key("a")
        after = v.notes("auto_range")
    finally:
        v.close()
    check(typed == ["off"] and after == ["on"],
          "a typed Lmin and Enter make the range manual (%s); A then acts (%s)" % (typed, after))


def pixel_case(img):
    v = xwin.Viewer(img, "--window", "960x1000", "--msaa", "1")
    try:
        vp = v.layout()["viewport"]
        xwin.xdo("mousemove", "--window", v.wid, vp[0] + vp[2] // 2, vp[1] + vp[3] // 2)
        v.settle()
        over, on = v.layout()["slider_Lmax"], v.notes("pixel")
        x, y, w, h = v.layout()["image0"]   # off the picture, on the dock
        xwin.xdo("mousemove", "--window", v.wid, x + w // 2, y + h // 2)
        v.settle()
        off, gone = v.layout()["slider_Lmax"], v.notes("pixel")
    finally:
        v.close()
    check(len(on) >= 3 and len(gone) < len(on) and over == off,
          "the Pixel section keeps its room: %d lines, then %d; Lmax's slider at y %d, then %d"
          % (len(on), len(gone), over[1], off[1]))


def menu_scroll_case(img):
    v = xwin.Viewer(img, "--window", "960x600", "--ui-scale", "2", "--msaa", "1")
    try:
        x, y, w, h = v.layout()["menubar3"]   # Tone
        for _ in range(3):   # a slow build (ASan) may take the first click before it draws
            v.click(x + w // 2, y + h // 2)
            lay = v.layout()
            tone = [n for n in lay if n.startswith("menu_tone.")]
            if tone:
                break
            try:   # xdotool fails when the window is gone: say so rather than a traceback
                v.key("Escape")
            except subprocess.CalledProcessError as e:
                check(False, "Escape after a click on Tone: xdotool %s; the viewer %s: %s"
                      % (e.stderr.strip(), "exited %s" % v.proc.poll()
                         if v.proc.poll() is not None else "runs", v.stderr()[-500:]))
                break
        last = lay[tone[-1]] if tone else (0, 0, 0, 0)
        hidden = last[1] + last[3] > 600
        first = lay[tone[0]] if tone else (0, 0, 0, 0)
        xwin.xdo("mousemove", "--window", v.wid, first[0] + first[2] // 2, first[1] + first[3])
        v.settle(0.3)
        for _ in range(15):
            xwin.xdo("click", "--window", v.wid, 5)
            v.settle(0.1)
        v.settle()
        lay = v.layout()
        last = lay.get(tone[-1], (0, 0, 0, 10 ** 6)) if tone else (0, 0, 0, 10 ** 6)
    finally:
        v.close()
    check(len(tone) >= 15 and hidden and last[1] + last[3] <= 600,
          "--ui-scale 2: the Tone menu (%d entries, the last below the window) scrolls to its "
          "last entry (at y %d..%d of 600)" % (len(tone), last[1], last[1] + last[3]))


def menu_labels_case(img):
    v = xwin.Viewer(img, "--window", "960x600", "--msaa", "1")
    bad, outside, entries = [], [], 0
    try:
        for g in range(8):
            x, y, w, h = v.layout()["menubar%d" % g]
            v.click(x + w // 2, y + h // 2)
            labels = v.notes("menu_entry")
            entries += len(labels)
            bad += [l for l in labels if "`" in l or len(l) > 40]
            outside += [n for n, r in v.layout().items()
                        if n.startswith("menu_") and r[0] + r[2] > 960]
            v.key("Escape")
        x, y, w, h = v.layout()["menubar0"]   # File
        v.click(x + w // 2, y + h // 2)
        x, y, w, h = v.layout()["menu_file.export"]
        xwin.xdo("mousemove", "--window", v.wid, x + w // 3, y + h // 2)
        v.settle()
        tip = v.notes("tooltip")
    finally:
        v.close()
    check(entries > 40 and not bad and not outside,
          "%d menu entries, short and plain (%s), inside the window (%s)"
          % (entries, bad[:3], outside[:3]))
    check(len(tip) == 1 and "hdrtone export" in tip[0] and "`" not in tip[0],
          "hovering Export PNG: its whole sentence as a tooltip (%s)" % tip)


def shot_info(*args):
    out = subprocess.run([BIN, "view", *args, "--screenshot", "/dev/null", "--frames", "3"],
                         capture_output=True, text=True, timeout=120).stdout
    return {l.split()[0]: l.split()[1:] for l in out.splitlines() if l.strip()}


def dock_case():
    info = shot_info(DEFAULT, "--window", "640x400", "--msaa", "1")
    iw, ih = map(int, info["screenshot"][3].split("x"))
    zoom = float(info["screenshot"][7])
    share = iw * ih * zoom * zoom / (640 * 400)
    check(share >= 0.35, "640x400: the fitted 16:9 picture is %.0f%% of the window" % (100 * share))
    info = shot_info(DEFAULT, "--window", "800x500", "--msaa", "1")
    vx, _ = map(int, info["viewport"][0].split(","))
    vw, _ = map(int, info["viewport"][1].split("x"))
    dock = 800 - vx - vw
    check(0 < dock < 0.4 * 800, "800x500: the dock is %d px, under 40%% of the width" % dock)


def load_case(tmp, small):
    big = os.path.join(tmp, "big.exr")
    r = subprocess.run([os.environ["HT_MAKE_BENCH_EXR"], DEFAULT, big, "7680", "4320", "piz"],
                       capture_output=True, text=True)
    if r.returncode:
        check(False, "make_bench_exr: " + r.stderr)
        return
    v = xwin.Viewer(small, big, "--window", "960x600", "--msaa", "1")
    seen = []   # (help shown, still loading) of each layout written
    times = {}
    try:
        t0 = time.time()
        xwin.xdo("key", "--window", v.wid, "Down")
        xwin.xdo("key", "--window", v.wid, "F1")
        end = t0 + 60
        while time.time() < end:
            with open(v.layout_path) as f:
                text = f.read()
            state = ("help_file.open" in text, "loading: big.exr" in text)
            if not seen or seen[-1] != state:
                seen.append(state)
                times[state] = time.time() - t0
            if "shown: 7680x4320" in text:
                break
            time.sleep(0.02)
        shown = "shown: 7680x4320" in text
        print("8K load: help shown %.2f s after the keys, the load done %.2f s after"
              % (times.get((True, True), -1), times.get((True, False), -1)))
    finally:
        v.close()
    check((True, True) in seen and seen[-1] == (True, False) and shown,
          "a key during an 8K load acts before the load ends (help shown, loading: %s), "
          "then the image shows (%s)" % (seen, shown))


def main():
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    img = os.path.join(tmp, "a.pfm")
    yy, xx = np.mgrid[0:160, 0:240]
    write_pfm(img, np.dstack([np.exp2(xx / 20.0 - 4)] * 3).astype(np.float32))
    help_case(img)
    enter_case(img)
    pixel_case(img)
    menu_scroll_case(img)
    menu_labels_case(img)
    dock_case()
    load_case(tmp, img)
    sys.exit(1 if fails else 0)


main()
