#!/usr/bin/env bash
# Live renders over tev's protocol (--listen), with a client of the test's own
# (tests/viewer/tev_client.py): an image sent as CreateImage + UpdateImage tiles is shown, and S
# exports exactly what `hdrtone export` makes of the same pixels as a PFM file; OpenImage,
# ReloadImage, CloseImage and VectorGraphics are taken; hostile clients (random bytes, a lying
# length, an absurd size, a truncated packet, 20 idle connections) leave the viewer running
# and serving; only loopback is listened on; once it has quit, `hdrtone FILE` opens a window
# of its own (a viewer that listens on tev's port never gets a hand-off: test_viewer_handoff).
source "$(dirname "$0")/viewer_common.sh"
command -v xdotool >/dev/null || { echo "skipped: no xdotool"; exit 77; }
client=(python3 "$(dirname "$0")/tev_client.py")
cd "$tmp"

# A small HDR picture as PFM (bottom row first): a colour gradient over 5 decades.
python3 - <<'PY'
import struct
w, h = 53, 37
px = []
for y in range(h):
    for x in range(w):
        l = 10 ** (-2 + 5 * x / (w - 1))
        px += [l * (0.3 + 0.7 * y / (h - 1)), l * 0.8, l * (1.0 - 0.6 * y / (h - 1))]
other = [px[3 * (y * w + w - 1 - x) + c] * 0.5 for y in range(h) for x in range(w)
         for c in range(3)]   # mirrored, half as bright
for name, p in (('render.pfm', px), ('other.pfm', other)):
    with open(name, 'wb') as f:
        f.write(b'PF\n%d %d\n-1.0\n' % (w, h))
        f.write(struct.pack('<%df' % len(p), *p))
PY
"$HT_BIN" export render.pfm -o ref.png || { echo "skipped: export failed (no GPU?)"; exit 77; }
"$HT_BIN" export other.pfm -o ref_other.png || { echo "skipped: export failed"; exit 77; }
"$HT_PNGDIFF" ref.png ref_other.png --max-diff 0 >/dev/null && err "the two pictures are alike"

# start_viewer ARGS...: a listening viewer on a free port (port 0: the system picks; the
# viewer says which on stderr). Sets pid, port, win.
start_viewer() {
  : >viewer.err
  "$HT_BIN" view --listen 127.0.0.1:0 "$@" 2>viewer.err & pid=$!
  port=
  for _ in $(seq 300); do
    port=$(grep -o 'on port [0-9]*' viewer.err | grep -o '[0-9]*$')
    [[ -n $port ]] && break
    sleep 0.1
  done
  win=$(timeout 60 xdotool search --sync --onlyvisible --name "^hdrtone" | head -1)
  [[ -n $port && -n $win ]] || { err "viewer did not start: $(cat viewer.err)"; exit 1; }
}
wait_for() { for _ in $(seq 300); do [[ -s $1 ]] && return 0; sleep 0.1; done; return 1; }
alive() { kill -0 "$pid" 2>/dev/null || err "viewer gone after $1: $(tail -5 viewer.err)"; }

start_viewer
# Only loopback by default: the socket is bound to 127.0.0.1.
# (ss comes with iproute2, which scripts/setup installs.)
ss -ltn | grep -q "127.0.0.1:$port " || err "not listening on 127.0.0.1:$port: $(ss -ltn)"
ss -ltn | grep -E -q "(\*|0\.0\.0\.0|\[::\]):$port " && err "listening beyond loopback"

# 1. An image in 16x16 tiles: S exports it as render_tonemapped.png, equal to the export of
# the same pixels as a file.
"${client[@]}" "$port" image render render.pfm 16 || err "client: send image"
sleep 1
xdotool key --window "$win" s
wait_for render_tonemapped.png || err "S wrote no render_tonemapped.png: $(tail -3 viewer.err)"
"$HT_PNGDIFF" render_tonemapped.png ref.png --max-diff 0 --max-off1 0 ||
  err "the network image's export differs from hdrtone export of the PFM"

# 2. Hostile clients, then a good one is still served.
for kind in random lying-length huge-image truncated; do
  "${client[@]}" "$port" hostile "$kind" || err "client: hostile $kind"
  alive "hostile client: $kind"
done
"${client[@]}" "$port" idle 20 2 || err "client: idle connections"
alive "20 idle connections"
"${client[@]}" "$port" vector render || err "client: vector graphics"
sleep 0.5
grep -q "vector graphics" viewer.err || err "VectorGraphics not reported"
# A name that needs making safe, tiles of another size, the other picture.
"${client[@]}" "$port" image "a/b c" other.pfm 7 || err "client after hostile ones"
sleep 1
alive "the next client"
xdotool key --window "$win" s
wait_for a_b_c_tonemapped.png || err "S wrote no a_b_c_tonemapped.png: $(tail -3 viewer.err)"
"$HT_PNGDIFF" a_b_c_tonemapped.png ref_other.png --max-diff 0 --max-off1 0 ||
  err "the second image's export differs"

# 3. ReloadImage and CloseImage of the shown image: the viewer shows render again.
"${client[@]}" "$port" reload "a/b c" || err "client: reload"
"${client[@]}" "$port" close "a/b c" || err "client: close"
sleep 1
xdotool key --window "$win" s
wait_for render_tonemapped-2.png || err "after CloseImage, S did not export render"

# 4. OpenImage of a file: shown (it grabs focus) and exported under its own name.
"${client[@]}" "$port" open "$tmp/other.pfm" || err "client: open"
sleep 1
xdotool key --window "$win" s
wait_for other_tonemapped.png || err "OpenImage: S wrote no other_tonemapped.png"
"$HT_PNGDIFF" other_tonemapped.png ref_other.png --max-diff 0 --max-off1 0 ||
  err "OpenImage: the file's export differs"
alive "OpenImage"

xdotool key --window "$win" q 2>/dev/null
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { err "Q did not quit"; kill "$pid"; }
wait "$pid" || err "viewer exit status $?"

# 5. The listening viewer has quit: a window of its own opens at once (hand-offs go to a
# running hdrtone only, test_viewer_handoff).
start=$(date +%s%N)
"$HT_BIN" "$tmp/render.pfm" 2>own.err & own=$!
w=$(timeout 60 xdotool search --sync --onlyvisible --name "^hdrtone - render" | head -1)
[[ -n $w ]] || err "no window of its own when nobody listens: $(cat own.err)"
grep -q handed own.err && err "handed over to nobody"
kill "$own" 2>/dev/null
wait "$own" 2>/dev/null
echo "own window after $((($(date +%s%N) - start) / 1000000)) ms"

# 7. A bad --listen is refused with a message and status 1.
"$HT_BIN" view --listen 127.0.0.1:99999 2>bad.err && err "--listen with port 99999 accepted"
[[ -s bad.err ]] || err "no message for a bad --listen"
exit $fail
