#!/usr/bin/env bash
# hdrtone SEQ plays a sequence: frames advance while it plays (screenshots after different
# frame counts differ, the status's frame numbers advance), Space pauses, Ctrl+Right and
# Ctrl+Left step one frame, Home/End jump; a broken frame in the middle is reported and the
# last good picture is held while the viewer runs on. The test hooks draw one frame of the
# sequence per window frame (viewer_seq_poll), so every screenshot here is reproducible.
# bench --playback plays it headless.
source "$(dirname "$0")/viewer_common.sh"
cd "$tmp"

# Frames 0..5 (shot.0000.pfm ..): a bright bar that moves right, one step per frame;
# frame 3 is broken (a truncated PFM).
python3 - <<'PY'
import struct
w, h = 64, 48
for f in range(6):
    px = []
    for y in range(h):
        for x in range(w):
            l = 50.0 if (x // 8) == f else 0.05 * (1 + y / h)
            px += [l, l * 0.9, l * 0.8]
    data = b'PF\n%d %d\n-1.0\n' % (w, h) + struct.pack('<%df' % len(px), *px)
    with open('shot.%04d.pfm' % f, 'wb') as out:
        out.write(data[:100] if f == 3 else data)
PY

# play NAME ARGS...: screenshot NAME.png of the sequence, the viewer's output in NAME.out.
play() {
  local name=$1; shift
  timeout 60 "$HT_BIN" 'shot.%04d.pfm' --msaa 1 --adapt none --no-panels --window 800x600 \
    --screenshot "$name.png" "$@" >"$name.out" 2>>viewer.err || err "$name: the viewer failed: $(tail -3 viewer.err)"
}
# frame_of NAME: the frame number the status shows.
frame_of() { sed -n 's/^status: frame \([0-9]*\) .*/\1/p' "$1.out" | head -1; }
# image_px NAME: pixels across the image (64x48, 1:1 in the middle of the 800x600 window, the
# picture alone; one in each bar position).
image_px() { pixels "$1.png" 372,300 380,300 388,300 396,300 404,300 412,300; }

play p1 --frames 1
play p2 --frames 2
play p3 --frames 3
f1=$(frame_of p1) f2=$(frame_of p2)
[[ $f1 == 0 && $f2 == 1 ]] || err "playing: frames $f1, $f2 (expected 0, 1)"
[[ "$(image_px p1)" != "$(image_px p2)" ]] || err "frames 0 and 1 show the same picture"
grep -q '^status: frame 1 \[2/6\]  playing' p2.out || err "status: $(grep '^status: frame' p2.out)"

# Space pauses at the frame the first window frame showed; Ctrl+Right steps one on.
play paused --frames 4 --keys 'space'
play step --frames 4 --keys 'space ctrl+Right'
play back --frames 4 --keys 'space ctrl+Right ctrl+Left'
fp=$(frame_of paused) fs=$(frame_of step) fb=$(frame_of back)
[[ -n $fp && $fs == $((fp + 1)) && $fb == "$fp" ]] ||
  err "steps: paused at $fp, a step on $fs, back $fb"
grep -q '^status: frame [0-9]* \[[0-9]*/6\]  paused' paused.out || err "not paused"
play last --frames 3 --keys 'space End'
[[ $(frame_of last) == 5 ]] || err "End: frame $(frame_of last)"
play first --frames 3 --keys 'space End Home'
[[ $(frame_of first) == 0 ]] || err "Home: frame $(frame_of first)"

# The broken frame 3: its message, the picture of frame 2 held, and playing goes on to 4.
play held --frames 5 --keys 'space ctrl+Right ctrl+Right'
play broken --frames 5 --keys 'space ctrl+Right ctrl+Right ctrl+Right'
grep -q '^message: frame 3: .*holding the last good frame' broken.out ||
  err "no message for the broken frame: $(grep message broken.out)"
[[ $(frame_of held) == 2 ]] || err "held: frame $(frame_of held)"
[[ "$(image_px held)" == "$(image_px broken)" ]] || err "the broken frame changed the picture"
play after --frames 5
[[ $(frame_of after) == 4 ]] || err "after the broken frame: frame $(frame_of after)"
# Played round twice, the broken frame is said on stderr once (the window says it each time).
timeout 60 "$HT_BIN" 'shot.%04d.pfm' --msaa 1 --adapt none --no-panels --window 800x600 \
  --screenshot loop.png --frames 14 >loop.out 2>loop.err ||
  err "loop: the viewer failed: $(tail -3 loop.err)"
n=$(grep -c 'frame 3: ' loop.err)
[[ $n == 1 ]] || err "the broken frame said $n times on stderr over two rounds, not once"
[[ "$(image_px after)" != "$(image_px held)" ]] || err "frame 4 shows frame 2's picture"

# The adaptation's state shows in the status while playing (human: the default).
timeout 60 "$HT_BIN" 'shot.%04d.pfm' --msaa 1 --screenshot adapt.png --frames 3 >adapt.out \
  2>>viewer.err || err "adapt: the viewer failed"
grep -q '^status: frame .*adapt human: Lavg [0-9.e+-]* cd/m^2' adapt.out ||
  err "adaptation status: $(grep '^status: frame' adapt.out)"
# ... and in the window's status bar, before the file's line.
bar='^bar: frame 2 \[3/6\]  playing [0-9.]* fps (of 24, [0-9]* dropped)  adapt human: '
grep -q "${bar}Lavg [0-9.e+-]* cd/m^2.*   shot.0002.pfm " adapt.out ||
  err "the status bar while playing: $(grep '^bar:' adapt.out)"

# The human-vision options do not adapt, as in export: refused together, and switched on by a
# key (Shift+V) they turn the adaptation off.
if timeout 60 "$HT_BIN" 'shot.%04d.pfm' --veil --adapt exp:1 --screenshot x.png --frames 2 \
    >/dev/null 2>veil_adapt.err; then
  err "view --veil --adapt exp:1 was accepted"
fi
grep -q -- '--adapt with --veil' veil_adapt.err || err "veil+adapt: $(cat veil_adapt.err)"
timeout 60 "$HT_BIN" 'shot.%04d.pfm' --msaa 1 --keys V --screenshot adaptv.png --frames 3 \
  >adaptv.out 2>>viewer.err || err "adapt with Shift+V: the viewer failed"
grep -q '^status: frame .*adapt off (human vision)' adaptv.out ||
  err "Shift+V status: $(grep '^status: frame' adaptv.out)"
# --frames A-B plays a part of the sequence.
play range --frames 4-5 --frames 1
[[ $(frame_of range) == 4 ]] && grep -q '\[1/2\]' range.out || err "--frames 4-5: $(frame_of range)"

# bench --playback: the same playing without a window, frames per second; the broken frame
# is counted as failed (status 1), a range without it plays clean.
"$HT_BIN" bench --playback 'shot.%04d.pfm' >bench.out 2>bench.err
[[ $? == 1 ]] && grep -q 'frame 3: ' bench.err && grep -q ', 1 failed' bench.out ||
  err "bench --playback with the broken frame: $(cat bench.out bench.err)"
"$HT_BIN" bench --playback 'shot.%04d.pfm' --frames 4-5 --json >bench.json ||
  err "bench --playback --frames 4-5: $(cat bench.json)"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["frames"] == 2 and d["fps"] > 0 and d["adapt"] == "human", d' bench.json ||
  err "bench --playback --json: $(cat bench.json)"
exit $fail
