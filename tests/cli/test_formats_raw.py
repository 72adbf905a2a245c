"""Camera raws shaped as TIFF without a DNG tag (Nikon NEF, Sony ARW, Pentax PEF, ...) open as
the camera raw through libraw, not as the TIFF preview in their first directory (issue 31), by
their content (a camera's Make with SubIFDs, or a CFA mosaic), whatever the file is called; a
TIFF that only looks so (a camera's developed picture with a SubIFD thumbnail) and that libraw
refuses opens as TIFF. Files written here with tifffile in those layouts (no camera's own file
is at hand): the routing is checked (format, size, camera metadata), and a NEF's pixels against
libraw's own dcraw_emu (test_formats_encoders compares a DNG's)."""
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
print("a.nef's pixels against libraw's own dcraw_emu (linear 16-bit, sRGB)")
# The file carries no as-shot white balance (no maker note). OpenImageIO's libraw plugin then
# takes libraw's daylight multipliers for the camera; dcraw_emu -w falls back to automatic
# (grey-world) balance instead: 2.57x, 0.76x, 1.37x apart per channel here (the 0.64 seen
# before). Without -w dcraw_emu takes the daylight multipliers too: equal within the half
# floats OpenImageIO hands libraw's output in (measured 1.1e-4 absolute at values to 0.16).
# A camera's file with its as-shot balance is used as shot by both (the DNG test in
# test_formats_encoders, whose AsShotNeutral dcraw_emu -w reads).
r = subprocess.run(["dcraw_emu", "-4", "-T", "-o", "1", os.path.join(tmp, "a.nef")],
                   capture_output=True, text=True)
htpy.check(r.returncode == 0, "dcraw_emu a.nef: %s" % r.stderr.strip())
ref = tifffile.imread(os.path.join(tmp, "a.nef.tiff")).astype(np.float32)[..., :3] / 65535
with open(os.path.join(tmp, "ref_nef.pfm"), "wb") as f:
    f.write(b"PF\n%d %d\n-1.0\n" % (ref.shape[1], ref.shape[0]))
    f.write(np.ascontiguousarray(ref[::-1], "<f4").tobytes())
r = subprocess.run([os.environ["HT_IMGDIFF"], os.path.join(tmp, "a.nef"),
                    os.path.join(tmp, "ref_nef.pfm"), "--tol", "1e-5", "--rel", "1e-3"],
                   capture_output=True, text=True)
print("  a.nef vs dcraw_emu: " + (r.stdout + r.stderr).strip())
htpy.check(r.returncode == 0, "a.nef differs from dcraw_emu's: " + r.stdout + r.stderr)
print("PEF-shaped: the mosaic in the first directory")
tifffile.imwrite(os.path.join(tmp, "a.pef"), cfa, photometric=32803,
                 extratags=CFA_TAGS + camera("PENTAX", "PENTAX K-1"))
expect("a.pef", "RAW", "Pentax")
print("each TIFF-shaped raw extension of the table, the mosaic in a SubIFD (as NEF's)")
for ext, make in (("nrw", "NIKON CORPORATION"), ("srf", "SONY"), ("sr2", "SONY"),
                  ("srw", "SAMSUNG"), ("3fr", "Hasselblad"), ("fff", "Hasselblad"),
                  ("erf", "SEIKO EPSON CORP."), ("kdc", "EASTMAN KODAK COMPANY"),
                  ("dcr", "Kodak"), ("mos", "Leaf"), ("mef", "Mamiya"), ("pef", "PENTAX")):
    with tifffile.TiffWriter(os.path.join(tmp, "b." + ext)) as tw:
        tw.write(preview, photometric="rgb", subfiletype=1, subifds=1,
                 extratags=camera(make, "X"))
        tw.write(cfa, photometric=32803, extratags=CFA_TAGS)
    s = stats("b." + ext)
    print("  b.%-4s %s" % (ext, s.get("format")))
    htpy.check(s.get("format") == "RAW", "b.%s: format %s, want RAW" % (ext, s.get("format")))
print("MRW, X3F, IIQ and CRW by their magic (headers only): libraw's, which refuses them")
heads = {"mrw": b"\0MRM" + bytes(60), "x3f": b"FOVb" + bytes(60),
         "iiq": b"IIII\x01waR" + bytes(56), "crw": b"II\x1a\0\0\0HEAPCCDR" + bytes(50)}
for ext, head in heads.items():
    for name in ("c." + ext, "c_%s.bin" % ext):  # the content decides, not the name
        open(os.path.join(tmp, name), "wb").write(head)
        r = subprocess.run([HT, "stats", os.path.join(tmp, name)], capture_output=True,
                           text=True)
        print("  %-10s %s" % (name, r.stderr.strip()[-70:]))
        htpy.check(r.returncode == 1 and "cannot read this RAW file" in r.stderr,
                   "%s: not routed to libraw: %s" % (name, r.stderr.strip()))
listed = subprocess.run([HT, "--formats"], capture_output=True, text=True).stdout
for ext in ["nrw", "srf", "sr2", "srw", "3fr", "fff", "erf", "kdc", "dcr", "mos", "mef", "pef"] + \
        list(heads):
    htpy.check(" ." + ext + " " in listed or " ." + ext + "\n" in listed,
               "--formats does not list .%s" % ext)
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
