"""Camera raws shaped as TIFF without a DNG tag (Nikon NEF, Sony ARW, Pentax PEF, ...) open as
the camera raw through libraw, not as the TIFF preview in their first directory (issue 31), by
their content (a camera's Make with SubIFDs, or a CFA mosaic), whatever the file is called; a
TIFF that only looks so (a camera's developed picture with a SubIFD thumbnail) and that libraw
refuses opens as TIFF. Files written here with tifffile in those layouts (no camera's own file
is at hand): the routing is checked (format, size, camera metadata), not libraw's pixels, which
test_formats_encoders compares for a DNG against dcraw_emu."""
import atexit, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htpy  # noqa: E402

htpy.need_numpy()
import numpy as np  # noqa: E402
import tifffile  # noqa: E402

HT = os.environ["HT_BIN"]
tmp = tempfile.mkdtemp()
atexit.register(shutil.rmtree, tmp, True)
H, W = 48, 64
y, x = np.mgrid[0:H, 0:W].astype(np.float32)
cfa = ((x / (W - 1) + y / (H - 1)) * 2000).astype(np.uint16)
CFA_TAGS = [(33421, "H", 2, (2, 2), False), (33422, "B", 4, (0, 1, 1, 2), False)]
preview = np.full((12, 16, 3), 200, np.uint8)


def camera(make, model):
    return [(271, "s", 0, make, False), (272, "s", 0, model, False)]


def stats(name):
    r = subprocess.run([HT, "stats", "--json", os.path.join(tmp, name)], capture_output=True,
                       text=True)
    htpy.check(r.returncode == 0, "%s refused: %s" % (name, r.stderr.strip()))
    return json.loads(r.stdout) if r.returncode == 0 else {}


def expect(name, fmt, make):
    s = stats(name)
    got = (s.get("format"), s.get("width"), s.get("height"), s.get("metadata", {}).get("Make"))
    print("  %-10s %s" % (name, got))
    htpy.check(got == (fmt, W, H, make), "%s: %s, want %s %dx%d Make %s" %
               (name, got, fmt, W, H, make))


print("NEF- and ARW-shaped (preview first, the mosaic in a SubIFD), under any name")
for make, model, names in (("NIKON CORPORATION", "NIKON D850", ("a.nef", "a_nef.tif")),
                           ("SONY", "ILCE-7M3", ("a.arw",))):
    for name in names:
        with tifffile.TiffWriter(os.path.join(tmp, name)) as tw:
            tw.write(preview, photometric="rgb", subfiletype=1, subifds=1,
                     extratags=camera(make, model))
            tw.write(cfa, photometric=32803, extratags=CFA_TAGS)
        expect(name, "RAW", make.split()[0].capitalize())
print("PEF-shaped: the mosaic in the first directory")
tifffile.imwrite(os.path.join(tmp, "a.pef"), cfa, photometric=32803,
                 extratags=CFA_TAGS + camera("PENTAX", "PENTAX K-1"))
expect("a.pef", "RAW", "Pentax")
print("a camera's developed TIFF with a SubIFD thumbnail: libraw refuses it, TIFF reads it")
with tifffile.TiffWriter(os.path.join(tmp, "developed.tif")) as tw:
    tw.write(np.full((H, W, 3), 30000, np.uint16), photometric="rgb", subifds=1,
             extratags=camera("NIKON CORPORATION", "NIKON D850"))
    tw.write(preview, photometric="rgb", subfiletype=1)
expect("developed.tif", "TIFF", "NIKON CORPORATION")
s = stats("developed.tif")
v = (30000 / 65535 + 0.055) / 1.055
want = v ** 2.4
got = s.get("brightest", {}).get("rgb", [0])[0]
htpy.check(abs(got - want) < 1e-5, "developed.tif: R %s, want sRGB-decoded %g" % (got, want))
htpy.finish("test_formats_raw")
