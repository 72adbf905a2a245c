"""The viewer's export with --hdr (src/viewer/viewer_export.c), in a real window under Xvfb:
`hdrtone view IMG --hdr pq` and the S key write ./NAME_tonemapped.png, a 16-bit PQ PNG equal
byte for byte to `hdrtone export IMG --hdr pq --backend cpu` (the viewer runs export's own
code on the CPU backend); --format avif|jxl|jpeg name the file and its kind (.jpg: an Ultra HDR
JPEG, equal to export's); the exposure view shown in the window is what S writes; the window
itself stays SDR: its pixels are those of the viewer without --hdr."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwin  # noqa: E402

xwin.in_xvfb()
check = xwin.check
BIN = os.environ["HT_BIN"]
image = xwin.sample_or_skip("Desk.exr")
tmp = tempfile.mkdtemp(prefix="ht_vexphdr_")
os.chdir(tmp)   # the viewer writes ./Desk_tonemapped.EXT


def export(out, *opts):
    r = subprocess.run([BIN, "export", image, "-o", out, "--backend", "cpu", *opts],
                       capture_output=True, text=True)
    check(r.returncode == 0, "export %s %s: %s" % (out, opts, r.stderr.strip()))
    return open(out, "rb").read() if r.returncode == 0 else b""


def wait_for(path, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            time.sleep(0.3)   # written atomically: whole once there
            return open(path, "rb").read()
        time.sleep(0.1)
    return b""


def window(view_opts):
    """The window's pixels of the viewer with VIEW_OPTS."""
    v = xwin.Viewer(image, "--window", "800x600", *view_opts)
    try:
        return v.pixels()
    finally:
        v.close()


def viewer_export(name, view_opts):
    """Starts the viewer with VIEW_OPTS and presses S: the bytes of ./NAME (then removed)."""
    v = xwin.Viewer(image, "--window", "800x600", *view_opts)
    try:
        v.key("s")
        data = wait_for(name)
    finally:
        v.close()
    check(data, "view %s, S: wrote %s" % (" ".join(view_opts), name))
    if data:
        os.remove(name)
    return data


for kind in ("pq", "hlg"):
    want = export("want_%s.png" % kind, "--hdr", kind)
    got = viewer_export("Desk_tonemapped.png", ["--hdr", kind])
    check(got == want, "--hdr %s: S's PNG equals export's byte for byte (%d and %d bytes)"
          % (kind, len(got), len(want)))
    check(got[:8] == b"\x89PNG\r\n\x1a\n" and b"cICP" in got[:200],
          "--hdr %s: a PNG with its cICP chunk" % kind)
plain, hdr = window([]), window(["--hdr", "pq"])
check(plain.shape == hdr.shape and (plain == hdr).all(),
      "--hdr leaves the window's SDR picture as it is (%s of the pixels differ)"
      % ((plain != hdr).any(axis=2).mean() if plain.shape == hdr.shape else "all"))

for fmt, ext in (("jxl", "jxl"), ("jpeg", "jpg"), ("avif", "avif")):
    want = export("want." + ext, "--hdr", "pq", "--format", fmt)
    got = viewer_export("Desk_tonemapped." + ext, ["--hdr", "pq", "--format", fmt])
    check(got == want, "--hdr pq --format %s: S's .%s equals export's (%d and %d bytes)"
          % (fmt, ext, len(got), len(want)))

# The exposure view in the window is what S exports: export --view exposure --hdr pq.
want = export("want_exp.png", "--hdr", "pq", "--view", "exposure", "--exposure", "1")
got = viewer_export("Desk_tonemapped.png", ["--hdr", "pq", "--view", "exposure", "--exposure",
                                            "1"])
check(got == want, "--view exposure --hdr pq: S's PNG equals export's (%d and %d bytes)"
      % (len(got), len(want)))
sys.exit(1 if xwin.fails else 0)
