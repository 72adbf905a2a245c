#!/usr/bin/env bash
# export's formats (src/io/encode.c): the 8-bit PNG's pixels are the tone mapper's (Pillow
# decodes them equal to the raw rgb24 stream, stb within 1 LSB of the GPU's) with an sRGB
# chunk; 16-bit PNG rounds to the 8-bit one within 1; JPEG >= 40 dB; rgb24 through ffmpeg's
# lossless FFV1 and back is exact, frames in input order; y4m is read by ffmpeg with the right
# frame count and colours; -o - writes only data; usage errors; a full or read-only output
# directory fails per file with no temporary file left.
set -u
. "$(dirname "$0")/testlib.sh"
need_python PIL numpy png
command -v ffmpeg >/dev/null || { echo "skipped: no ffmpeg (scripts/setup)"; exit 77; }
tmp=$(mktemp -d)
cleanup() {
  for m in "$tmp/full" "$tmp/ro"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
H=("$HT_BIN" export --backend cpu)
src=$HT_SOURCE_DIR/assets/default.exr

# Inputs: three different pictures of one size, and one of another size.
for i in 1 2 3; do
  "$HT_MAKE_BENCH_EXR" "$src" "$tmp/s$i.exr" $((200 + 40 * i)) 150 zip >/dev/null ||
    err "make s$i.exr"
done
for i in 1 2 3; do   # the same size, different content: crops of different scales
  "$HT_MAKE_BENCH_EXR" "$tmp/s$i.exr" "$tmp/f$i.exr" 160 120 zip >/dev/null || err "make f$i.exr"
done
"$HT_MAKE_BENCH_EXR" "$src" "$tmp/odd.exr" 96 64 zip >/dev/null || err "make odd.exr"

"${H[@]}" "$src" -o "$tmp/d.png" || err "png export"
"${H[@]}" "$src" -o - --format rgb24 > "$tmp/d.rgb" || err "rgb24 export"
"${H[@]}" "$src" -o "$tmp/d16.png" --depth 16 || err "16-bit png export"
"${H[@]}" "$src" -o "$tmp/d.jpg" || err "jpeg export"
"${H[@]}" "$src" -o "$tmp/g.png" --transfer gamma:2.2 || err "gamma png export"
"${H[@]}" "$src" -o - --format png > "$tmp/stdout.png" || err "png to stdout"
"${H[@]}" "$src" -o - --format jpeg > "$tmp/stdout.jpg" || err "jpeg to stdout"
"$py" - "$tmp" <<'PY' || err "png/jpeg checks"
import sys, struct, zlib
import numpy as np, png
from PIL import Image
t = sys.argv[1]
def chunks(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", path
    at, out = 8, []
    while at < len(d):
        n, kind = struct.unpack(">I4s", d[at:at + 8])
        body = d[at + 8:at + 8 + n]
        assert struct.unpack(">I", d[at + 8 + n:at + 12 + n])[0] == zlib.crc32(kind + body)
        out.append((kind, body))
        at += 12 + n
    assert at == len(d) and out[-1][0] == b"IEND", path   # nothing after IEND
    return out
img = np.asarray(Image.open(t + "/d.png"))
h, w, _ = img.shape
raw = np.fromfile(t + "/d.rgb", np.uint8)
assert raw.size == w * h * 3, (raw.size, w, h)
assert (raw.reshape(h, w, 3) == img).all(), "Pillow's PNG pixels differ from the rgb24 stream"
c = dict(chunks(t + "/d.png"))
assert c.get(b"sRGB") == b"\x00", "no sRGB chunk with intent 0"
g = dict(chunks(t + "/g.png"))
assert b"sRGB" not in g and struct.unpack(">I", g[b"gAMA"])[0] == 45455, "gamma 2.2: gAMA"
r = png.Reader(t + "/d16.png").asDirect()
assert r[3]["bitdepth"] == 16 and r[0] == w and r[1] == h, r[3]
d16 = np.vstack([np.asarray(row, np.uint16) for row in r[2]]).reshape(h, w, 3).astype(int)
assert d16.max() > 255 and (d16 % 257 != 0).any(), "16-bit PNG holds only 8-bit values"
diff = np.abs((d16 * 255 + 32767) // 65535 - img.astype(int)).max()
assert diff <= 1, "16-bit rounded to 8 differs by %d" % diff
assert dict(chunks(t + "/d16.png")).get(b"sRGB") == b"\x00"
mse = ((np.asarray(Image.open(t + "/d.jpg")).astype(float) - img) ** 2).mean()
psnr = 10 * np.log10(255.0 ** 2 / max(mse, 1e-12))
assert psnr >= 40, "JPEG PSNR %.2f dB" % psnr
assert Image.open(t + "/d.jpg").format == "JPEG"
assert open(t + "/stdout.png", "rb").read() == open(t + "/d.png", "rb").read(), "-o - png"
assert open(t + "/stdout.jpg", "rb").read() == open(t + "/d.jpg", "rb").read(), "-o - jpeg"
print("png/jpeg: %dx%d, JPEG %.1f dB" % (w, h, psnr))
PY
# The GPU backend (when there is one): 8 bits within 1 LSB of the CPU's (stb decodes), and its
# 16 bits rounded to 8 within 1 of them too.
if "$HT_BIN" export "$src" -o "$tmp/gpu.png" 2>"$tmp/gpu.err"; then
  "$HT_PNGDIFF" "$tmp/gpu.png" "$tmp/d.png" >/dev/null || err "GPU and CPU PNG differ"
  "$HT_BIN" export "$src" -o "$tmp/gpu16.png" --depth 16 || err "GPU 16-bit export"
  "$py" - "$tmp/gpu16.png" "$tmp/d.png" <<'PY' || err "GPU 16-bit"
import sys, numpy as np, png
from PIL import Image
r = png.Reader(sys.argv[1]).asDirect()
a = np.vstack([np.asarray(x, np.uint16) for x in r[2]]).reshape(r[1], r[0], 3).astype(int)
b = np.asarray(Image.open(sys.argv[2])).astype(int)
assert r[3]["bitdepth"] == 16 and np.abs((a * 255 + 32767) // 65535 - b).max() <= 1
PY
else
  grep -q "no GPU" "$tmp/gpu.err" && echo "note: no GPU" || err "GPU export: $(cat "$tmp/gpu.err")"
fi

# rgb24: three frames in input order, each the file's PNG; FFV1 (lossless) and back is exact.
"${H[@]}" -j4 "$tmp"/f{1,2,3}.exr -o - --format rgb24 > "$tmp/f.rgb" || err "rgb24 stream"
mkdir "$tmp/fp"
"${H[@]}" "$tmp"/f{1,2,3}.exr -o "$tmp/fp" || err "pngs of the frames"
ffmpeg -v error -f rawvideo -pix_fmt rgb24 -s 160x120 -r 25 -i - -c:v ffv1 "$tmp/f.mkv" \
  < "$tmp/f.rgb" || err "ffmpeg ffv1 encode"
ffmpeg -v error -i "$tmp/f.mkv" -f rawvideo -pix_fmt rgb24 - > "$tmp/back.rgb" || err "ffv1 decode"
# y4m: the same three frames read by ffmpeg from a pipe.
"${H[@]}" "$tmp"/f{1,2,3}.exr -o - --format y4m > "$tmp/f.y4m" || err "y4m stream"
"${H[@]}" "$tmp"/f{1,2,3}.exr -o - --format y4m |
  ffmpeg -v error -i - -f rawvideo -pix_fmt yuv444p - > "$tmp/f.yuv" || err "ffmpeg -i - (y4m)"
ffmpeg -v error -i "$tmp/f.y4m" -vf scale=in_color_matrix=bt709:in_range=full:out_range=full \
  -f rawvideo -pix_fmt rgb24 - > "$tmp/y4m.rgb" || err "y4m to rgb"
"$py" - "$tmp" <<'PY' || err "stream checks"
import sys, numpy as np
from PIL import Image
t = sys.argv[1]
pngs = [np.asarray(Image.open("%s/fp/f%d.png" % (t, i))) for i in (1, 2, 3)]
assert not (pngs[0] == pngs[1]).all(), "the test frames should differ"
f = np.fromfile(t + "/f.rgb", np.uint8)
assert f.size == 3 * 160 * 120 * 3, "rgb24: %d bytes" % f.size
assert (f.reshape(3, 120, 160, 3) == np.stack(pngs)).all(), "rgb24 frames: not the PNGs, in order"
back = np.fromfile(t + "/back.rgb", np.uint8)
assert back.size == f.size and (back == f).all(), "FFV1 round trip differs"
head = b"YUV4MPEG2 W160 H120 F25:1 Ip A1:1 C444 XCOLORRANGE=FULL\n"
y = open(t + "/f.y4m", "rb").read()
assert y.startswith(head) and len(y) == len(head) + 3 * (6 + 3 * 160 * 120), len(y)
assert y.count(b"FRAME\n") >= 3
yuv = np.fromfile(t + "/f.yuv", np.uint8)
assert yuv.size == 3 * 3 * 160 * 120, "ffmpeg read %d frames" % (yuv.size / (3 * 160 * 120))
rgb = np.fromfile(t + "/y4m.rgb", np.uint8).reshape(3, 120, 160, 3).astype(int)
err = np.abs(rgb - np.stack(pngs)).mean()
assert err < 1.5, "y4m decoded by ffmpeg (BT.709, full range): mean error %.2f" % err
print("streams: rgb24 exact, FFV1 exact, y4m mean error %.2f" % err)
PY

# A frame of another size: refused, naming the file; the others stream on; exit 1.
"${H[@]}" "$tmp/f1.exr" "$tmp/odd.exr" "$tmp/f2.exr" -o - --format rgb24 > "$tmp/mixed.rgb" \
  2> "$tmp/mixed.err" && err "a frame of another size was accepted"
grep -q "odd.exr" "$tmp/mixed.err" ||
  err "size error does not name the file: $(cat "$tmp/mixed.err")"
[[ $(stat -c %s "$tmp/mixed.rgb") == $((2 * 160 * 120 * 3)) ]] || err "mixed stream: wrong size"

# Usage errors (exit 2), nothing on stdout.
usage() {
  local out rc
  out=$("${H[@]}" "$@" 2>/dev/null); rc=$?
  [[ $rc == 2 && -z $out ]] || err "usage error expected (rc $rc) for: $*"
}
usage "$tmp/f1.exr" "$tmp/f2.exr" -o - --format png
usage "$tmp/f1.exr" -o "$tmp/x.png" --format jpeg
usage "$tmp/f1.exr" -o "$tmp/x.y4m"
usage "$tmp/f1.exr" -o "$tmp/x.png" --depth 12
usage "$tmp/f1.exr" -o "$tmp/x.jpg" --depth 16
usage "$tmp/f1.exr" -o "$tmp/x.jpg" --display-window
usage "$tmp/f1.exr" -o "$tmp/x.jpg" --quality 0
[[ ! -e $tmp/x.png && ! -e $tmp/x.jpg ]] || err "a usage error wrote a file"
# Several inputs into a directory as JPEG: IN's names with .jpg.
mkdir "$tmp/jd"
"${H[@]}" "$tmp"/f{1,2}.exr -o "$tmp/jd" --format jpeg --quality 80 || err "jpeg directory"
[[ -f $tmp/jd/f1.jpg && -f $tmp/jd/f2.jpg ]] || err "jpeg directory: $(ls "$tmp/jd")"
# The output may not replace the input, whatever the format.
cp "$tmp/f1.exr" "$tmp/same.jpg"
"${H[@]}" "$tmp/same.jpg" -o "$tmp/same.jpg" 2>/dev/null; [[ $? == 2 ]] || err "output == input"

# A full disk and a read-only directory: each file reported, exit 1, no temporary file left.
if mkdir "$tmp/full" "$tmp/ro" && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null &&
   mount -t tmpfs -o ro,size=64k tmpfs "$tmp/ro" 2>/dev/null; then
  "${H[@]}" "$tmp"/s{1,2,3}.exr -o "$tmp/full" --depth 16 2> "$tmp/full.err"
  [[ $? == 1 ]] || err "full disk: exit status"
  grep -q "disk is full" "$tmp/full.err" || err "full disk: $(cat "$tmp/full.err")"
  [[ -z $(ls -A "$tmp/full" | grep '^\.') ]] || err "full disk: temporary files left"
  "${H[@]}" "$tmp"/s{1,2}.exr -o "$tmp/ro" 2> "$tmp/ro.err"; [[ $? == 1 ]] || err "read-only: exit"
  [[ $(grep -c "read-only" "$tmp/ro.err") == 2 ]] || err "read-only: $(cat "$tmp/ro.err")"
  [[ -z $(ls -A "$tmp/ro") ]] || err "read-only: files left"
elif [[ $(id -u) != 0 ]]; then
  mkdir -p "$tmp/ro2" && chmod 555 "$tmp/ro2"
  "${H[@]}" "$tmp"/s{1,2}.exr -o "$tmp/ro2" 2> "$tmp/ro.err"; [[ $? == 1 ]] || err "read-only: exit"
  [[ $(grep -c "not writable" "$tmp/ro.err") == 2 ]] || err "read-only: $(cat "$tmp/ro.err")"
  [[ -z $(ls -A "$tmp/ro2") ]] || err "read-only: files left"
else
  echo "note: cannot mount a tmpfs as root here: full/read-only disk not checked"
fi
exit $fail
