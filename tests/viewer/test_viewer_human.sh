#!/usr/bin/env bash
# The viewer shows pcond's human-vision options (veil, acuity, colour loss) and the
# one-frame-latency form:
#  1. at 1:1 with `--human --preset pcond` on a pcond-reference picture the window's pixels
#     equal `hdrtone export --backend gpu` with the same options (<= 1 LSB), with MSAA 1 and 4,
#     and the status says which options apply;
#  2. Shift+V (the veil off) changes the picture, to export's without --veil (<= 1 LSB);
#  3. an image in pieces (wider than a GPU texture) is shown without the options, and the
#     status says so;
#  4. --latency 1 on a still image gives the pixels of --latency 0 once the picture stays,
#     where the latency form engages (adapting to a zoomed view: the view's own curve differs
#     from the image's), and the status says it is on.
source "$(dirname "$0")/viewer_common.sh"
desk=$image
image=${HT_SHARED:-}/pcond-reference/Desk/input_decoded.exr
[[ -f $image ]] || { echo "skipped: no $image"; exit 77; }

# same NAME KEYS MSAA VIEW-OPTIONS -- EXPORT-OPTIONS: the viewer at 1:1 after KEYS equals
# export with EXPORT-OPTIONS; the screenshot is $tmp/NAME.png, the output $tmp/NAME.out.
same() {
  local name=$1 keys=$2 msaa=$3 view=() out at; shift 3
  while [[ $1 != -- ]]; do view+=("$1"); shift; done; shift
  "$HT_BIN" export "$image" --backend gpu -o "$tmp/$name.export.png" "$@" 2>>"$tmp/export.err" ||
    { err "export $*: $(cat "$tmp/export.err")"; return; }
  out=$(shot "$tmp/$name.png" --msaa "$msaa" --no-panels --keys "ctrl+0 $keys" "${view[@]}") ||
    { err "viewer $keys ${view[*]}: $(cat "$tmp/viewer.err")"; return; }
  printf '%s\n' "$out" >"$tmp/$name.out"
  read -r _ _ _ _ _ _ at _ _ <<<"$(head -1 <<<"$out")"
  "$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at" --max-diff 1 \
    --max-off1 0 >/dev/null ||
    err "$name: the viewer differs from export $*:" \
        "$("$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at")"
}
"$HT_BIN" export "$image" --backend gpu -o "$tmp/plain.png" --preset pcond --ceiling human \
  2>/dev/null ||
  { echo "skipped: export failed (no GPU?)"; exit 77; }
for msaa in 1 4; do
  same "human$msaa" "" $msaa --human --preset pcond -- --human --preset pcond
done
grep -q '^status: human vision: veil on, acuity on, colour loss on$' "$tmp/human1.out" ||
  err "--human: $(grep '^status: human' "$tmp/human1.out")"
# The options show: the picture is not the one without them.
read -r _ _ _ _ _ _ at _ _ <<<"$(head -1 "$tmp/human1.out")"
"$HT_PNGDIFF" "$tmp/human1.png" "$tmp/plain.png" --crop "$at" --max-off1 0.1 >/dev/null &&
  err "--human gives the picture without the options"
same "no_veil" "V" 1 --human --preset pcond -- --acuity --color-loss --preset pcond --ceiling human
grep -q '^status: human vision: veil off, acuity on, colour loss on$' "$tmp/no_veil.out" ||
  err "Shift+V: $(grep '^status: human' "$tmp/no_veil.out")"
"$HT_PNGDIFF" "$tmp/no_veil.png" "$tmp/human1.png" --max-off1 0.1 >/dev/null &&
  err "Shift+V did not change the picture"
# Off and on again (Shift+H twice): the picture kept from the first frame must not come back
# with the analysis of the frame without the options (viewer.c human_picture).
same "again" "H H" 1 --human --preset pcond -- --human --preset pcond
echo "human: $("$HT_PNGDIFF" "$tmp/human1.png" "$tmp/plain.png" --crop "$at");" \
     "Shift+V: $("$HT_PNGDIFF" "$tmp/no_veil.png" "$tmp/human1.png")"

# 3. An image wider than the largest texture (16384 on llvmpipe; asked of the driver).
python3 - "$tmp/wide.exr" <<'PY'
import struct, sys
W, H = 40000, 4
chans = ['B', 'G', 'R']
def attr(name, kind, data):
    return name.encode() + b'\0' + kind.encode() + b'\0' + struct.pack('<i', len(data)) + data
chlist = b''.join(c.encode() + b'\0' + struct.pack('<iB3xii', 1, 0, 1, 1) for c in chans) + b'\0'
header = (b'\x76\x2f\x31\x01' + struct.pack('<i', 2) + attr('channels', 'chlist', chlist) +
          attr('compression', 'compression', b'\0') +
          attr('dataWindow', 'box2i', struct.pack('<4i', 0, 0, W - 1, H - 1)) +
          attr('displayWindow', 'box2i', struct.pack('<4i', 0, 0, W - 1, H - 1)) +
          attr('lineOrder', 'lineOrder', b'\0') +
          attr('pixelAspectRatio', 'float', struct.pack('<f', 1)) +
          attr('screenWindowCenter', 'v2f', struct.pack('<2f', 0, 0)) +
          attr('screenWindowWidth', 'float', struct.pack('<f', 1)) + b'\0')
# Half floats: a ramp over five decades, the same in every channel.
px = [struct.pack('<e', 10 ** (-2 + 5 * x / (W - 1))) for x in range(W)]
row = b''.join(b''.join(px) for c in chans)
block = struct.pack('<ii', 0, len(row)) + row
start = len(header) + 8 * H
offsets = b''.join(struct.pack('<Q', start + k * len(block)) for k in range(H))
open(sys.argv[1], 'wb').write(header + offsets + b''.join(
    struct.pack('<ii', k, len(row)) + row for k in range(H)))
PY
out=$(timeout 120 "$HT_BIN" view "$tmp/wide.exr" --screenshot "$tmp/wide.png" --frames 2 --msaa 1 \
      --human 2>>"$tmp/viewer.err") ||
  err "viewer wide --human: $(cat "$tmp/viewer.err")"
line=$(grep '^status: human vision' <<<"$out")
if grep -q '^status: human vision: veil' <<<"$line"; then
  echo "note: the driver takes the 40000-pixel row in one texture: no pieces to test"
else
  grep -q '^status: human vision: not shown (the image is in [0-9]* pieces' <<<"$line" ||
    err "an image in pieces with --human: the status says '$line'"
  grep -q '^message: ' <<<"$out" &&
    err "an image in pieces with --human: $(grep '^message: ' <<<"$out")"
  echo "in pieces: $line"
fi

# 4. --latency 1 on a still image: zoomed in, adapting to the view (V), MSAA 1, pixel sampling.
image=$desk
for lat in 0 1; do
  out=$(shot "$tmp/lat$lat.png" --msaa 1 --no-panels --latency $lat --frames 8 \
        --keys "ctrl+0 equal equal v") ||
    err "viewer --latency $lat: $(cat "$tmp/viewer.err")"
  printf '%s\n' "$out" >"$tmp/lat$lat.out"
done
"$HT_PNGDIFF" "$tmp/lat1.png" "$tmp/lat0.png" --max-diff 0 >/dev/null ||
  err "--latency 1 differs from 0 on a still image:" \
      "$("$HT_PNGDIFF" "$tmp/lat1.png" "$tmp/lat0.png")"
grep -q '^status: .*  latency 1 frame' "$tmp/lat1.out" || err "--latency 1: not in the status"
grep -q 'latency' "$tmp/lat0.out" && err "--latency 0: the status mentions latency"
# The frame right after V shows the image's curve (one frame late): the latency form engaged.
out=$(shot "$tmp/late.png" --msaa 1 --no-panels --latency 1 --keys "ctrl+0 equal equal v") ||
  err "viewer late"
"$HT_PNGDIFF" "$tmp/late.png" "$tmp/lat0.png" --max-off1 0.1 >/dev/null &&
  err "--latency 1: the frame after V already shows the view's curve (the form did not engage?)"
exit $fail
