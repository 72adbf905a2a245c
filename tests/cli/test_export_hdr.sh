#!/usr/bin/env bash
# export --hdr (docs/hdr.md), checked with numpy from the published formulas, not the
# project's code: the PQ PNG's codes are SMPTE ST 2084 of the display luminance the curve asks
# for (the linear output of the same tone mapping, x Ldmax) within one 16-bit step, the HLG
# PNG's BT.2100's OETF of its inverse OOTF (system gamma 1.2 at 1000 cd/m^2); cICP, mDCv and
# cLLi as PNG's third edition lays them out, MaxCLL/MaxFALL those of the decoded picture;
# with --ldmax 100 --drange 100, PQ-decoded luminance / 100 equals the SDR export's linear
# display values (sRGB-decoded) within the two encodings' steps; the GPU within one code of
# the CPU on 99.9 % of values; hdrtone reads its PQ PNG back as cd/m^2; the SDR outputs
# tagged (cICP and sRGB, or iCCP of Display P3 primaries; JPEG's ICC; Radiance PRIMARIES=);
# bad combinations refused with their reason.
set -u
. "$(dirname "$0")/testlib.sh"
need_python PIL numpy png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
H=("$HT_BIN" export --backend cpu)
src=$HT_SOURCE_DIR/assets/default.exr

"${H[@]}" "$src" -o "$tmp/pq2020.png" --hdr pq || err "pq export"
"${H[@]}" "$src" -o "$tmp/pq.pfm" --ldmax 1000 --drange 10000 --display-space rec2020 ||
  err "linear export of the same mapping"
"${H[@]}" "$src" -o "$tmp/hlg.png" --hdr hlg --display-space display-p3 || err "hlg export"
"${H[@]}" "$src" -o "$tmp/hlg.pfm" --ldmax 1000 --drange 10000 --display-space display-p3 ||
  err "linear export, P3"
"${H[@]}" "$src" -o "$tmp/tie_pq.png" --hdr pq --ldmax 100 --drange 100 --display-space srgb ||
  err "pq export at 100 cd/m^2"
"${H[@]}" "$src" -o "$tmp/tie_sdr.png" --ldmax 100 --drange 100 --depth 16 || err "sdr export"
"${H[@]}" "$src" -o "$tmp/sdr.png" || err "sdr png"
"${H[@]}" "$src" -o "$tmp/p3.png" --display-space display-p3 || err "p3 png"
"${H[@]}" "$src" -o "$tmp/p3.jpg" --display-space display-p3 || err "p3 jpeg"
"${H[@]}" "$src" -o "$tmp/r.hdr" --display-space rec2020 || err "hdr with primaries"
gpu=0
if "$HT_BIN" export --backend gpu "$src" -o "$tmp/pq_gpu.png" --hdr pq 2>/dev/null; then
  gpu=1
fi
"$HT_BIN" stats --json "$tmp/pq2020.png" > "$tmp/pq.json" || err "stats of the PQ PNG"
"$HT_BIN" stats --json --backend cpu "$src" --hdr pq > "$tmp/hdr.json" || err "stats --hdr pq"

"$py" - "$tmp" "$gpu" <<'PY' || err "numpy checks"
import sys, struct, json
import numpy as np, png
from PIL import Image, ImageCms
import io
t, gpu = sys.argv[1], sys.argv[2] == "1"

def chunks(path):
    d = open(path, "rb").read()
    p, out = 8, {}
    while p < len(d):
        n, = struct.unpack(">I", d[p:p + 4])
        out.setdefault(d[p + 4:p + 8], d[p + 8:p + 8 + n])
        p += 12 + n
    return out

def codes(path):
    w, h, rows, info = png.Reader(path).asDirect()
    assert info["bitdepth"] == 16, path
    return np.array([np.asarray(r, dtype=np.float64) for r in rows]).reshape(h, w, 3)

def pfm(path):
    d = open(path, "rb").read()
    head = d.split(b"\n", 3)
    w, h = map(int, head[1].split())
    a = np.frombuffer(head[3], dtype="<f4").reshape(h, w, 3)
    return a[::-1].astype(np.float64)

# SMPTE ST 2084
m1, m2 = 2610 / 16384, 2523 / 4096 * 128
c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
def pq_enc(L):
    y = np.clip(L / 10000.0, 0, 1) ** m1
    return ((c1 + c2 * y) / (1 + c3 * y)) ** m2
def pq_dec(E):
    p = np.clip(E, 0, 1) ** (1 / m2)
    return 10000.0 * (np.maximum(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1)
# BT.2100 HLG
a = 0.17883277; b = 1 - 4 * a; c = 0.5 - a * np.log(4 * a)
def hlg_oetf(E):
    E = np.clip(E, 0, 1)
    return np.where(E <= 1 / 12, np.sqrt(3 * E), a * np.log(np.maximum(12 * E - b, 1e-12)) + c)
xyz = lambda x, y: np.array([x / y, 1.0, (1 - x - y) / y])
def rgb_to_xyz(xy):
    m = np.stack([xyz(*p) for p in xy[:3]], axis=1)
    return m * np.linalg.solve(m, xyz(*xy[3]))
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)]
lum2020 = np.array([0.2627, 0.6780, 0.0593])
lumP3 = rgb_to_xyz(P3)[1]

# PQ: the codes of the curve's display luminance, Ld x 1000 cd/m^2.
lin = np.clip(pfm(t + "/pq.pfm"), 0, 1)
q = codes(t + "/pq2020.png")
want = np.floor(pq_enc(lin * 1000.0) * 65535 + 0.5)
d = np.abs(q - want)
assert d.max() <= 1, "PQ: %d codes from ST 2084 of the curve's luminance" % d.max()
assert q.max() > 40000, "PQ: the picture is dark (%d)" % q.max()
ch = chunks(t + "/pq2020.png")
assert ch[b"cICP"] == bytes([9, 16, 0, 1]), ch.get(b"cICP")
md = struct.unpack(">8H2I", ch[b"mDCv"])
assert md[0] == 35400 and md[1] == 14600 and md[6] == 15635 and md[7] == 16450, md
assert md[8] == 1000 * 10000 and md[9] == 1000, md   # 1000 and 0.1 cd/m^2
cll, fall = (v / 10000.0 for v in struct.unpack(">2I", ch[b"cLLi"]))
L = pq_dec(q / 65535.0).max(axis=2)
assert abs(cll - L.max()) <= 1e-3 * L.max() + 1e-3, (cll, L.max())
assert abs(fall - L.mean()) <= 1e-3 * L.mean() + 1e-3, (fall, L.mean())
assert b"sRGB" not in ch and b"iCCP" not in ch

# HLG on a P3 display: the inverse OOTF (gamma 1.2 at 1000 cd/m^2) then the OETF.
h = codes(t + "/hlg.png")
lin = np.clip(pfm(t + "/hlg.pfm"), 0, 1)
yd = (lin * lumP3).sum(axis=2, keepdims=True)
scene = np.where(yd > 0, lin * np.maximum(yd, 1e-30) ** ((1 - 1.2) / 1.2), 0)
want = np.floor(hlg_oetf(scene) * 65535 + 0.5)
d = np.abs(h - want)
assert d.max() <= 1, "HLG: %d codes from BT.2100" % d.max()
assert chunks(t + "/hlg.png")[b"cICP"] == bytes([12, 18, 0, 1])

# One curve, two encodings: PQ / 100 equals the SDR export's linear values.
pqL = pq_dec(codes(t + "/tie_pq.png") / 65535.0) / 100.0
s = codes(t + "/tie_sdr.png") / 65535.0
sdr = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
step_pq = (pq_dec(pq_enc(pqL * 100) + 1 / 65535) - pq_dec(pq_enc(pqL * 100))) / 100
e2 = np.minimum(s + 1 / 65535, 1)
step_sdr = np.where(e2 <= 0.04045, e2 / 12.92, ((e2 + 0.055) / 1.055) ** 2.4) - sdr
d = np.abs(pqL - sdr) - (step_pq + step_sdr)
assert d.max() <= 1e-9, "PQ/100 vs SDR: %g beyond the steps" % d.max()
assert sdr.max() > 0.9, "SDR picture dark"

if gpu:
    g, cq = codes(t + "/pq_gpu.png"), q
    off = (np.abs(g - cq) > 1).mean()
    assert off <= 1e-3, "GPU vs CPU PQ: %.4f of values more than one code apart" % off

# Read back: hdrtone's own statistics of the PQ PNG are the decoded luminance.
st = json.loads(open(t + "/pq.json").read().splitlines()[0])
Y = (pq_dec(q / 65535.0) * lum2020).sum(axis=2)
mx = st["brightest"]["luminance"]   # by the file's Y row (BT.2020's, from the cICP)
assert abs(mx - Y.max()) <= 1e-4 * Y.max(), (mx, Y.max())

# stats --hdr pq: the light levels export wrote in cLLi, the mastering display of its mDCv.
hd = json.loads(open(t + "/hdr.json").read().splitlines()[0])["hdr"]
assert abs(hd["max_cll"] - cll) <= 1e-4 * cll and abs(hd["max_fall"] - fall) <= 1e-4 * fall, hd
assert hd["mastering"]["primaries"][0] == [0.708, 0.292] and hd["mastering"]["max_luminance"] == 1000
assert "R(35400,14600)WP(15635,16450)L(10000000,1000)" in hd["x265"], hd["x265"]

# SDR tags.
ch = chunks(t + "/sdr.png")
assert ch[b"cICP"] == bytes([1, 13, 0, 1]) and ch[b"sRGB"] == b"\x00" and b"iCCP" not in ch
ch = chunks(t + "/p3.png")
assert ch[b"cICP"] == bytes([12, 13, 0, 1]) and b"sRGB" not in ch and b"iCCP" in ch
# An ICC profile's colorants are adapted to D50 (Bradford): P3-D65's, adapted, in numpy.
brad = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
d65, d50 = xyz(0.3127, 0.3290), np.array([0.9642, 1, 0.8249])
adapt = np.linalg.inv(brad) @ np.diag((brad @ d50) / (brad @ d65)) @ brad
red = adapt @ rgb_to_xyz(P3)[:, 0]
red_xy = red[:2] / red.sum()
for im in (Image.open(t + "/p3.png"), Image.open(t + "/p3.jpg")):
    prof = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"])).profile
    r = prof.red_primary[1]
    assert abs(r[0] - red_xy[0]) < 1e-3 and abs(r[1] - red_xy[1]) < 1e-3, (im.format, r, red_xy)
head = open(t + "/r.hdr", "rb").read(300)
assert b"\nPRIMARIES= 0.7080 0.2920 0.1700 0.7970 0.1310 0.0460 0.3127 0.3290\n" in head, head
PY

# AVIF and JPEG XL, read by their reference tools (libavif-bin, libjxl-tools): the transfer,
# primaries and depth asked for, and the PQ PNG's pixels (AVIF 10-bit: within half a 10-bit
# step of the 16-bit codes, 33; JPEG XL lossless: exactly).
if command -v avifdec >/dev/null && command -v djxl >/dev/null && command -v jxlinfo >/dev/null; then
  "${H[@]}" "$src" -o "$tmp/pq2020.avif" --hdr pq || err "avif export"
  "${H[@]}" "$src" -o "$tmp/hlg.avif" --hdr hlg --display-space display-p3 --quality 80 ||
    err "lossy hlg avif export"
  "${H[@]}" "$src" -o "$tmp/pq2020.jxl" --hdr pq || err "jxl export"
  "${H[@]}" "$src" -o "$tmp/hlg.jxl" --hdr hlg --display-space display-p3 || err "hlg jxl"
  info=$(avifdec --info "$tmp/pq2020.avif")
  for want in "Bit Depth      : 10" "Color Primaries: 9" "Transfer Char. : 16" "Range          : Full"; do
    [[ $info == *"$want"* ]] || err "avifdec --info: no '$want': $info"
  done
  info=$(avifdec --info "$tmp/hlg.avif")
  [[ $info == *"Color Primaries: 12"* && $info == *"Transfer Char. : 18"* ]] ||
    err "lossy HLG AVIF: $info"
  info=$(jxlinfo "$tmp/pq2020.jxl")
  [[ $info == *"16-bit RGB"* && $info == *"Rec.2100 primaries, PQ transfer function"* ]] ||
    err "jxlinfo: $info"
  info=$(jxlinfo "$tmp/hlg.jxl")
  [[ $info == *"P3 primaries, HLG transfer function"* ]] || err "jxlinfo HLG: $info"
  # --depth 32: the linear output as floats (1 = Ldmax, the intensity target), the display's
  # primaries; djxl's PFM equals export's own .pfm of the same mapping, bit for bit.
  "${H[@]}" "$src" -o "$tmp/lin.jxl" --hdr pq --depth 32 --display-space display-p3 ||
    err "jxl --depth 32"
  "${H[@]}" "$src" -o "$tmp/lin.pfm" --ldmax 1000 --drange 10000 --display-space display-p3 ||
    err "the .pfm beside it"
  info=$(jxlinfo "$tmp/lin.jxl")
  [[ $info == *"32-bit float"* && $info == *"P3 primaries, Linear transfer function"* &&
     $info == *"intensity_target: 1000.0"* ]] || err "jxlinfo --depth 32: $info"
  djxl "$tmp/lin.jxl" "$tmp/lin_d.pfm" >/dev/null 2>&1 || err "djxl --depth 32"
  "$py" - "$tmp" <<'PY' || err "djxl's floats differ from the .pfm's"
import sys
import numpy as np
def pfm(path):   # either byte order: djxl writes big-endian, hdrtone little-endian
    with open(path, "rb") as f:
        assert f.readline().strip() == b"PF"
        w, h = map(int, f.readline().split())
        s = float(f.readline())
        return np.frombuffer(f.read(), dtype="<f4" if s < 0 else ">f4").reshape(h, w, 3)
a, b = pfm(sys.argv[1] + "/lin.pfm"), pfm(sys.argv[1] + "/lin_d.pfm")
assert a.shape == b.shape and np.array_equal(a, b), np.abs(a - b).max()
PY
  avifdec -d 16 "$tmp/pq2020.avif" "$tmp/avif16.png" >/dev/null || err "avifdec"
  djxl "$tmp/pq2020.jxl" "$tmp/jxl16.png" >/dev/null 2>&1 || err "djxl"
  "$py" - "$tmp" <<'PY' || err "AVIF/JPEG XL pixels"
import sys
import numpy as np, png
t = sys.argv[1]
def codes(path):
    w, h, rows, info = png.Reader(path).asDirect()
    return np.array([np.asarray(r, dtype=np.int64) for r in rows]).reshape(h, w, 3)
ref = codes(t + "/pq2020.png")
d = np.abs(codes(t + "/avif16.png") - ref).max()
assert d <= 33, "AVIF: %d codes from the PNG" % d
d = np.abs(codes(t + "/jxl16.png") - ref).max()
assert d == 0, "JPEG XL lossless: %d codes from the PNG" % d
PY
else
  echo "note: no avifdec/djxl/jxlinfo: AVIF and JPEG XL not checked (scripts/setup)"
fi

# 10-bit y4m for ffmpeg: ffprobe's pixel format and range; the frames decoded here from
# BT.2020's matrix, narrow range, within two 10-bit steps of the PQ PNG; 4:2:0's frame size.
if command -v ffprobe >/dev/null; then
  "${H[@]}" "$src" -o - --format y4m --hdr pq > "$tmp/pq.y4m" || err "y4m --hdr pq"
  "${H[@]}" "$src" "$src" -o - --format y4m --hdr pq --chroma 420 > "$tmp/pq420.y4m" ||
    err "y4m --chroma 420"
  p=$(ffprobe -v error -show_streams "$tmp/pq.y4m")
  [[ $p == *"pix_fmt=yuv444p10le"* && $p == *"color_range=tv"* ]] || err "ffprobe y4m: $p"
  p=$(ffprobe -v error -show_streams "$tmp/pq420.y4m")
  [[ $p == *"pix_fmt=yuv420p10le"* ]] || err "ffprobe y4m 4:2:0: $p"
  "$py" - "$tmp" <<'PY' || err "y4m frames"
import sys
import numpy as np, png
t = sys.argv[1]
w, h, rows, info = png.Reader(t + "/pq2020.png").asDirect()
ref = np.array([np.asarray(r, dtype=np.float64) for r in rows]).reshape(h, w, 3) / 65535
d = open(t + "/pq.y4m", "rb").read()
i = d.index(b"FRAME\n") + 6
a = np.frombuffer(d[i:i + 6 * w * h], dtype="<u2").astype(float).reshape(3, h, w)
Y, Cb, Cr = (a[0] - 64) / 876, (a[1] - 512) / 896, (a[2] - 512) / 896
kr, kb = 0.2627, 0.0593
R, B = Y + 2 * (1 - kr) * Cr, Y + 2 * (1 - kb) * Cb
G = (Y - kr * R - kb * B) / (1 - kr - kb)
e = np.abs(np.stack([R, G, B], axis=2) - ref).max() * 1023
assert e <= 2, "y4m: %.2f 10-bit steps from the PNG" % e
d420 = open(t + "/pq420.y4m", "rb").read()
head = d420.index(b"\n") + 1
frame = 6 + 2 * (w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2))
assert len(d420) == head + 2 * frame, (len(d420), head, frame)
PY
fi

# Bad combinations: refused (status 2) with the reason.
bad() {
  local want=$1; shift
  local out
  out=$("${H[@]}" "$src" "$@" 2>&1 >/dev/null); local s=$?
  [[ $s -eq 2 && $out == *"$want"* ]] || err "$* -> status $s: $out (want '$want')"
}
bad "linear output" -o "$tmp/x.hdr" --hdr pq
bad "linear output" -o "$tmp/x.pfm" --hdr hlg
bad "8-bit RGB" -o - --format rgb24 --hdr pq
bad "BT.2020" -o - --format y4m --hdr pq --display-space display-p3
bad "band" -o "$tmp/x.png" --hdr pq --depth 8
bad "32: JPEG XL" -o "$tmp/x.png" --depth 32
bad "sequence" -o "$tmp/x.%04d.jpg" --hdr pq
bad "own curve" -o "$tmp/x.png" --hdr pq --transfer gamma:2.4
bad "OCIO view" -o "$tmp/x.png" --hdr pq --view ocio
[[ ! -e $tmp/x.png && ! -e $tmp/x.hdr && ! -e $tmp/x.jpg ]] || err "a refused export wrote a file"
exit $fail
