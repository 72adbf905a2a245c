# Sourced by tests/test_viewer_*.sh: runs the script under Xvfb (re-executing itself through
# xvfb-run), picks the test image, and offers helpers. Exit 77 (skipped) when there is no
# xvfb-run or no image.
set -u
if [[ -z ${HT_IN_XVFB:-} ]]; then
  command -v xvfb-run >/dev/null || { echo "skipped: no xvfb-run"; exit 77; }
  # 1280x1024 so that Desk.exr (644x874) fits at 1:1; 24-bit as PLATFORM.md says.
  HT_IN_XVFB=1 exec xvfb-run -a -s "-screen 0 1280x1024x24" bash "$0" "$@"
fi
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
image=${HT_SHARED:-}/exr-samples/Desk.exr
[[ -f $image ]] || image=${HT_SOURCE_DIR:-}/assets/default.exr
[[ -f $image ]] || { echo "skipped: no test image (Desk.exr or assets/default.exr)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

# shot OUT.png [viewer args...]: a screenshot after the first frames; prints the viewer's
# "screenshot ... at X,Y ..." line.
shot() {
  local out=$1; shift
  timeout 120 "$HT_BIN" view "$image" --window 1240x1000 --screenshot "$out" --frames 2 "$@" \
    2>>"$tmp/viewer.err"
}

# mean A.png: mean 8-bit value over the whole picture.
mean() { "$HT_PNGDIFF" "$1" "$1" | awk '{print $NF}'; }

# gt X Y: X > Y (floats).
gt() {
  python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$1" "$2"
}

# pixels PNG X,Y...: the 8-bit RGB of each pixel, one "R G B" line per point ("- - -" outside).
# Pure Python (no PIL here): 8-bit RGB or RGBA PNGs, non-interlaced, as the screenshots are.
pixels() {
  python3 - "$@" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        assert depth == 8 and ctype in (2, 6) and interlace == 0, 'unsupported PNG'
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
want = {}
for arg in sys.argv[2:]:
    x, y = (int(float(t)) for t in arg.split(','))
    want.setdefault(y, []).append((x, arg))
rows, prev, out = {}, bytearray(stride), {}
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 1:
        for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 2:
        for i in range(stride): line[i] = (line[i] + prev[i]) & 255
    elif f == 3:
        for i in range(stride):
            line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x, arg in want.get(y, []):
        if 0 <= x < w: out[arg] = '%d %d %d' % tuple(line[x * bpp:x * bpp + 3])
    prev = line
for arg in sys.argv[2:]:
    print(out.get(arg, '- - -'))
PY
}

# count_colour PNG X0 Y0 X1 Y1 EXPR: pixels of the rectangle [X0,X1) x [Y0,Y1) for which the
# Python expression EXPR over r, g, b is true.
count_colour() {
  local png=$1 x0=$2 y0=$3 x1=$4 y1=$5 expr=$6 pts=() x y
  for ((y = y0; y < y1; y += 2)); do for ((x = x0; x < x1; x += 2)); do pts+=("$x,$y"); done; done
  pixels "$png" "${pts[@]}" | python3 -c '
import sys
n = 0
for line in sys.stdin:
    t = line.split()
    if t[0] == "-": continue
    r, g, b = map(int, t)
    n += bool(eval(sys.argv[1]))
print(n)' "$expr"
}

# status_of OUTPUT PATTERN: the status lines of a screenshot's output matching PATTERN.
status_of() { grep '^status: ' <<<"$1" | grep -E -- "$2"; }
