#!/usr/bin/env bash
# --watch: the shown file is reloaded when it changes on disk. A file rewritten in two halves
# (first half, a pause in which the viewer finds it unreadable and keeps the last picture,
# second half) and a file renamed into place: after each, the window (captured with xwd)
# shows what `hdrtone export` makes of the new file, and the viewer is still running.
source "$(dirname "$0")/viewer_common.sh"
for tool in xdotool xwd convert; do
  command -v $tool >/dev/null || { echo "skipped: no $tool"; exit 77; }
done
cd "$tmp"

# pfm NAME VARIANT: a small HDR picture (a gradient over 5 decades; variants differ).
pfm() {
  python3 - "$@" <<'PY'
import struct, sys
name, k = sys.argv[1], int(sys.argv[2])
w, h = 61, 41
px = []
for y in range(h):
    for x in range(w):
        xx = x if k % 2 == 0 else w - 1 - x
        l = 10 ** (-2 + 5 * xx / (w - 1)) * (1 + k)
        px += [l * (0.2 + 0.8 * y / (h - 1)), l * 0.7, l * (1.0 - 0.5 * y / (h - 1)) * (1 + k % 3)]
with open(name, 'wb') as f:
    f.write(b'PF\n%d %d\n-1.0\n' % (w, h) + struct.pack('<%df' % len(px), *px))
PY
}
for k in 0 1 2; do
  pfm "v$k.pfm" $k
  "$HT_BIN" export "v$k.pfm" -o "ref$k.png" || { echo "skipped: export failed (no GPU?)"; exit 77; }
done
mkdir watched
cp v0.pfm watched/shown.pfm

"$HT_BIN" view --watch --no-panels --msaa 1 watched/shown.pfm 2>viewer.err & pid=$!
win=$(timeout 60 xdotool search --sync --onlyvisible --name "^hdrtone - shown" | head -1)
[[ -n $win ]] || { err "no viewer window: $(cat viewer.err)"; kill "$pid"; exit 1; }

# (convert: only "convert FILE.png ppm:-", which a stand-in of ImageMagick also offers.)
# shows REF.png: the window's pixels contain the exported picture (<= 1 LSB, as the 1:1 view
# of test_viewer_pixels), somewhere (the image is centred at 1:1).
shows() {
  xwd -silent -id "$win" >shot.xwd && convert "$1" ppm:- >ref.ppm || return 1
  python3 - shot.xwd ref.ppm <<'PY'
import struct, sys
def ppm(path):
    d = open(path, 'rb').read()
    t = d.split(maxsplit=4)
    w, h = int(t[1]), int(t[2])
    return w, h, d[len(d) - w * h * 3:]
def xwd(path):   # X window dump: a header of 25 big-endian CARD32, the colormap, the pixels
    d = open(path, 'rb').read()
    f = struct.unpack('>25I', d[:100])
    hsize, w, h, order, bpp, bpl = f[0], f[4], f[5], f[7], f[11], f[12]
    masks = f[14:17]
    assert bpp == 32, 'xwd: %d bits per pixel' % bpp
    pos, out = hsize + 12 * f[19], bytearray()
    for y in range(h):
        row = d[pos + y * bpl:pos + y * bpl + 4 * w]
        for v in struct.unpack(('<' if order == 0 else '>') + '%dI' % w, row):
            for m in masks:
                out.append((v & m) >> ((m & -m).bit_length() - 1))
    return w, h, bytes(out)
sw, sh, s = xwd(sys.argv[1])
rw, rh, r = ppm(sys.argv[2])
def close(ox, oy, rows):
    for y in rows:
        a = s[((oy + y) * sw + ox) * 3:((oy + y) * sw + ox + rw) * 3]
        b = r[y * rw * 3:(y + 1) * rw * 3]
        if any(abs(p - q) > 1 for p, q in zip(a, b)):
            return False
    return True
for oy in range(sh - rh + 1):
    for ox in range(sw - rw + 1):
        if abs(s[(oy * sw + ox) * 3] - r[0]) <= 1 and close(ox, oy, [0, rh // 2]) and \
                close(ox, oy, range(rh)):
            sys.exit(0)
sys.exit(1)
PY
}
# wait_shows REF.png: within 10 s.
wait_shows() { for _ in $(seq 40); do shows "$1" && return 0; sleep 0.25; done; return 1; }
alive() { kill -0 "$pid" 2>/dev/null || err "viewer gone after $1: $(tail -5 viewer.err)"; }

wait_shows ref0.png || err "the first picture is not shown"

# 1. Rewritten in place in two halves, with a pause between.
python3 - v1.pfm watched/shown.pfm <<'PY'
import sys, time
data = open(sys.argv[1], 'rb').read()
with open(sys.argv[2], 'r+b') as f:
    f.truncate(0)
    f.write(data[:len(data) // 2])
    f.flush()
    time.sleep(1.5)   # the viewer tries it now (and once more): unreadable
    f.write(data[len(data) // 2:])
PY
alive "a half-written file"
grep -q "updating shown.pfm" viewer.err || err "no 'updating' note for the half-written file"
wait_shows ref1.png || err "the file rewritten in two halves is not shown: $(tail -3 viewer.err)"
shows ref0.png && err "the comparison cannot tell the pictures apart"

# 2. Renamed into place (a new file over the old name).
cp v2.pfm watched/.shown.tmp
mv watched/.shown.tmp watched/shown.pfm
wait_shows ref2.png || err "the file renamed into place is not shown: $(tail -3 viewer.err)"
alive "a rename"

# 3. U turns the watch off: a change is not shown.
xdotool key --window "$win" u
sleep 0.5
cp v0.pfm watched/shown.pfm
sleep 1
shows ref2.png || err "with the watch off (U), the change was shown"
grep -q "watch off" viewer.err || err "U did not say 'watch off'"

xdotool key --window "$win" q 2>/dev/null
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { err "Q did not quit"; kill "$pid"; }
wait "$pid" || err "viewer exit status $?"
exit $fail
