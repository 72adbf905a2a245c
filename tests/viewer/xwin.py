"""Helpers of the window tests: a real hdrtone window under Xvfb driven by xdotool, its
pixels read with xwd, the places of its widgets from the HT_TEST_LAYOUT hook."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

SKIP = 77


def in_xvfb(screen="1920x1080x24"):
    """Re-runs this script under xvfb-run unless it is there already; skips without it."""
    if os.environ.get("HT_IN_XVFB"):
        return
    if not shutil.which("xvfb-run") or not shutil.which("xdotool") or not shutil.which("xwd"):
        print("skipped: needs xvfb-run, xdotool and xwd")
        sys.exit(SKIP)
    env = dict(os.environ, HT_IN_XVFB="1")
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 " + screen, sys.executable]
                       + sys.argv, env=env)
    sys.exit(r.returncode)


fails = []


def check(ok, msg):
    """Prints ok/FAIL and MSG; a failure is kept in fails (the test exits 1 with any)."""
    print(("ok: " if ok else "FAIL: ") + msg)
    if not ok:
        fails.append(msg)


def write_pfm(path, rgb):
    """RGB (H x W x 3 floats, top row first) as a PFM file (bottom row first, as PFM is)."""
    import numpy as np
    h, w, _ = rgb.shape
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(np.ascontiguousarray(rgb[::-1], dtype="<f4").tobytes())


def sample_or_skip(name):
    """../shared/exr-samples/NAME (HT_SHARED), or exit SKIP when it is not there."""
    path = os.path.join(os.environ.get("HT_SHARED", ""), "exr-samples", name)
    if not os.path.exists(path):
        print("skipped: no", path)
        sys.exit(SKIP)
    return path


# When the last input was sent (Viewer.settle waits for a frame drawn after it).
_INPUTS = {"mousemove", "click", "mousedown", "mouseup", "key", "keydown", "keyup", "type"}
_last_input_ns = 0


def xdo(*args):
    global _last_input_ns
    if args and args[0] in _INPUTS:
        _last_input_ns = time.time_ns()
    return subprocess.run(["xdotool", *map(str, args)], check=True, capture_output=True,
                          text=True).stdout.strip()


class Viewer:
    """hdrtone view ARGS in a real window; its widgets from HT_TEST_LAYOUT."""

    def __init__(self, *args):
        self.tmp = tempfile.mkdtemp()
        self.layout_path = os.path.join(self.tmp, "layout")
        env = dict(os.environ, HT_TEST_LAYOUT=self.layout_path,
                   XDG_RUNTIME_DIR=self.tmp)  # its own hand-off socket
        os.chmod(self.tmp, 0o700)
        for attempt in range(3):   # Xvfb can refuse a first client while it starts
            self.proc = subprocess.Popen([os.environ["HT_BIN"], "view", *map(str, args)],
                                         env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
            if self._wait_window():
                break
            err = self.stderr()
            if "open display" not in err:
                self.close()
                raise RuntimeError("no hdrtone window: " + err)
            time.sleep(1)
        if not self.wid:
            self.close()
            raise RuntimeError("no hdrtone window (the display refused it three times)")
        self.wait_loaded()
        self.settle()

    def wait_loaded(self, timeout=60):
        """Until no file is loading (files decode off the window's thread: the window shows
        before its image)."""
        end = time.time() + timeout
        while time.time() < end and self.proc.poll() is None:
            with open(self.layout_path) as f:
                if "\nloading: " not in "\n" + f.read():
                    return
            time.sleep(0.05)

    def _wait_window(self):
        self.wid = None
        for _ in range(300):
            r = subprocess.run(["xdotool", "search", "--pid", str(self.proc.pid)],
                               capture_output=True, text=True)
            if r.stdout.strip() and os.path.exists(self.layout_path):
                self.wid = r.stdout.split()[0]
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        return self.wid is not None

    def stderr(self):
        try:
            return self.proc.communicate(timeout=5)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            return ""

    def settle(self, s=1.0):
        """Waits S seconds (llvmpipe draws a frame in some tens of ms; GUI frames follow
        input), then, on a loaded machine, until the window has drawn a frame since the last
        input was sent (the layout hook's file is rewritten each frame), for up to 5 s more."""
        t0 = time.time_ns()
        time.sleep(s)
        while time.time_ns() - t0 < (s + 5) * 1e9:
            try:
                if os.stat(self.layout_path).st_mtime_ns > _last_input_ns:
                    return
            except OSError:
                pass
            time.sleep(0.05)

    def title(self):
        return xdo("getwindowname", self.wid)

    def layout(self):
        """The widgets' places by name; the hook's text lines ("NAME: text") left out."""
        out = {}
        with open(self.layout_path) as f:
            for line in f:
                name, *xywh = line.split()
                if not name.endswith(":"):
                    out[name] = tuple(int(t) for t in xywh)
        return out

    def notes(self, name):
        """The layout hook's "NAME: text" lines, in order."""
        with open(self.layout_path) as f:
            return [l[len(name) + 2:].rstrip("\n") for l in f if l.startswith(name + ": ")]

    def click(self, x, y):
        xdo("mousemove", "--window", self.wid, int(x), int(y))
        xdo("click", "--window", self.wid, 1)
        self.settle()

    def shift_click(self, x, y):
        self.mod_click("shift", x, y)

    def mod_click(self, mod, x, y):
        """A click with modifier MOD (xdotool's name: shift, ctrl) held, both through XTEST
        (events sent to the window alone carry no modifier state)."""
        xdo("mousemove", "--window", self.wid, int(x), int(y))
        time.sleep(0.3)
        xdo("keydown", mod)
        xdo("click", 1)
        time.sleep(0.3)
        xdo("keyup", mod)
        self.settle()

    def drag(self, x0, y0, x1, y1):
        xdo("mousemove", "--window", self.wid, int(x0), int(y0))
        time.sleep(0.3)   # the press must find the pointer there
        xdo("mousedown", "--window", self.wid, 1)
        for t in (0.25, 0.5, 0.75, 1.0):
            xdo("mousemove", "--window", self.wid, int(x0 + (x1 - x0) * t),
                int(y0 + (y1 - y0) * t))
            time.sleep(0.15)
        xdo("mouseup", "--window", self.wid, 1)
        self.settle()

    def key(self, *keys):
        xdo("key", "--window", self.wid, *keys)
        self.settle()

    def pixels(self):
        """The window's pixels, H x W x 3 uint8, through xwd."""
        data = subprocess.run(["xwd", "-silent", "-id", self.wid], check=True,
                              capture_output=True).stdout
        h = struct.unpack(">25I", data[:100])
        header, width, height, order = h[0], h[4], h[5], h[7]
        bpp, stride, ncolors = h[11], h[12], h[19]
        assert bpp == 32, "xwd: %d bits per pixel" % bpp
        start = header + 12 * ncolors
        px = np.frombuffer(data[start:start + stride * height], np.uint8)
        px = px.reshape(height, stride)[:, :width * 4].reshape(height, width, 4)
        return px[:, :, [2, 1, 0]] if order == 0 else px[:, :, [1, 2, 3]]

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)
