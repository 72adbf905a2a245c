#!/usr/bin/env bash
# The hand-off only to hdrtone (issue 21), with real windows under Xvfb and a private
# XDG_RUNTIME_DIR (so no other test's viewer is reached):
#  1. with no hdrtone running, `hdrtone FILE` opens a window of its own, which then accepts
#     hand-offs on its socket;
#  2. a second `hdrtone FILE2` (a relative path, from another folder) exits 0 and the running
#     viewer lists FILE2 and shows it (its title), with FILE still a key away (P, N); a folder
#     handed over adds its images, the first shown; no second window opens;
#  2b. the hand-off tells the truth: a damaged EXR (a truncated Desk.exr) that the window
#     fails to load exits 1 with the window's reason naming the file, and the next good file
#     exits 0 (the reply waits for the load's outcome: loads are off the UI thread); a missing
#     file exits 1 before anything is sent; a folder with no image exits 1 (the window's
#     list refuses it); a typo'd command names the nearest one (exit 2); no window opens;
#  3. a stale socket (its hdrtone killed) is not handed to: the window opens, and the new
#     viewer takes the socket over and accepts the next hand-off;
#  4. a fake listener on tev's port 127.0.0.1:14158 never receives a connection from them
#     (one naming this test's files: other programs on the machine may connect).
here=$(dirname "$0")
common=$here/viewer_common.sh
[[ -f $common ]] || common=$here/../viewer_common.sh
source "$common"
command -v xdotool >/dev/null || { echo "skipped: no xdotool"; exit 77; }
unset HT_HANDOFF   # the tests' environment turns the hand-off off
export XDG_RUNTIME_DIR=$tmp/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
sock=$XDG_RUNTIME_DIR/hdrtone.sock
cd "$tmp"

mkdir -p pics other more empty
head -c 3000 "$image" > other/damaged.exr   # the header, and a chunk cut short
python3 - <<'PY'
import struct
for name in ('pics/a.pfm', 'pics/b.pfm', 'pics/c.pfm', 'other/x.pfm', 'more/p.pfm', 'more/q.pfm'):
    with open(name, 'wb') as f:
        f.write(b'PF\n8 6\n-1.0\n' + struct.pack('<144f', *([1.0] * 144)))
PY

# The fake tev: accepts on 127.0.0.1:14158 and keeps what each connection sends in fake.N
# (a tev client sends the file's path: another program on this machine may connect too, so
# only a connection that names this test's files counts).
python3 - <<'PY' &
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(('127.0.0.1', 14158))
    s.listen(16)
except OSError as e:
    open('fake.status', 'w').write('busy: %s' % e)
    raise SystemExit(0)
open('fake.status', 'w').write('listening')
n = 0
while True:
    c, _ = s.accept()
    n += 1
    c.settimeout(2)
    data = b''
    try:
        while len(data) < 1 << 16:
            chunk = c.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    open('fake.%d' % n, 'wb').write(data)
    c.close()
PY
fake=$!
pids=("$fake")
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [[ -s fake.status ]] && break; sleep 0.1; done
echo "fake tev listener: $(cat fake.status)"

# title_is NAME WHAT: waits up to 10 s for the window title "hdrtone - NAME".
title_is() {
  for _ in $(seq 100); do
    [[ $(xdotool getwindowname "$win" 2>/dev/null) == "hdrtone - $1" ]] && return 0
    sleep 0.1
  done
  err "$2: the title is '$(xdotool getwindowname "$win" 2>/dev/null)', not 'hdrtone - $1'"
}
# greets: whether an hdrtone accepts on the socket (it greets; an empty list ends the talk).
greets() {
  python3 - "$sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
try:
    s.connect(sys.argv[1])
    ok = s.recv(64) == b'hdrtone-handoff 1\n'
    s.sendall(b'\0')
    ok = ok and s.recv(64) == b'ok 0\n'
except OSError:
    ok = False
sys.exit(0 if ok else 1)
PY
}
# viewer_start FILE: `hdrtone FILE` that must open a window (sets pid, win) and listen.
viewer_start() {
  "$HT_BIN" "$1" 2>>viewer.err & pid=$!
  pids+=("$pid")
  win=$(timeout 60 xdotool search --sync --onlyvisible --pid "$pid" --name "^hdrtone" | head -1)
  [[ -n $win ]] || { err "hdrtone $1 opened no window: $(tail -3 viewer.err)"; exit 1; }
  for _ in $(seq 100); do
    greets && return 0
    sleep 0.1
  done
  err "hdrtone $1 does not accept hand-offs on $sock"
}
# hand FILE...: a hand-off that must succeed and open no window.
hand() {
  timeout 20 "$HT_BIN" "$@" 2>hand.err || err "hdrtone $*: exit status $? ($(cat hand.err))"
  grep -q "handed $# file" hand.err || err "hdrtone $*: not handed over: $(cat hand.err)"
}

# 1. Nobody runs: a window of its own.
viewer_start pics/a.pfm
title_is a.pfm "the first viewer"
grep -q handed viewer.err && err "the first hdrtone handed its file to someone"

# 2. Hand-offs to it: a relative path from another folder, then a folder.
(cd other && hand x.pfm)
title_is x.pfm "after handing x.pfm"
xdotool key --window "$win" p
title_is a.pfm "P after the hand-off (a.pfm is still open)"
xdotool key --window "$win" n
title_is x.pfm "N back to the handed file"
hand more/
title_is p.pfm "a folder handed over: its first image"
xdotool key --window "$win" n
title_is q.pfm "N: the folder's second image"
xdotool key --window "$win" n
title_is a.pfm "N wraps round: the list is a.pfm x.pfm p.pfm q.pfm"
n=$(xdotool search --onlyvisible --name "^hdrtone" | wc -l)
[[ $n == 1 ]] || err "$n hdrtone windows after the hand-offs, not 1"

# 2b. What the window makes of a file is what the hand-off says.
# refused RC WHAT ARGS...: a hand-off that must exit RC, its message naming WHAT; no window.
refused() {
  local want=$1 what=$2; shift 2
  timeout 60 "$HT_BIN" "$@" 2>hand.err
  local rc=$?
  [[ $rc == "$want" ]] || err "hdrtone $*: exit status $rc, not $want ($(cat hand.err))"
  grep -q -F "$what" hand.err || err "hdrtone $*: the message does not name $what: $(cat hand.err)"
  grep -q handed hand.err && err "hdrtone $*: said it handed over: $(cat hand.err)"
}
refused 1 "other/damaged.exr: file is truncated or damaged" other/damaged.exr
grep -q "window could not show it: $tmp/other/damaged.exr: file is truncated" hand.err ||
  err "the reason is not the window's, with the file's path: $(cat hand.err)"
title_is damaged.exr "the damaged file is listed (the window says why it shows nothing)"
hand pics/c.pfm
title_is c.pfm "a good file after the damaged one"
refused 1 "other/missing.exr: no such command or file" other/missing.exr
refused 1 "missing.exr: No such file" pics/a.pfm other/missing.exr
refused 1 "empty" empty/
refused 2 "stat: no such command or file (the nearest command: stats" stat other/x.pfm
refused 2 "the nearest command: export" exprot pics/a.pfm
n=$(xdotool search --onlyvisible --name "^hdrtone" | wc -l)
[[ $n == 1 ]] || err "$n hdrtone windows after the refused hand-offs, not 1"

# 3. A stale socket: the viewer killed, its socket file left behind.
kill -9 "$pid"
wait "$pid" 2>/dev/null
[[ -S $sock ]] && ! greets || err "no stale socket left to test with"
viewer_start pics/b.pfm
title_is b.pfm "the viewer opened over a stale socket"
grep -q "handed" viewer.err && err "b.pfm was handed over: $(cat viewer.err)"
hand pics/c.pfm
title_is c.pfm "the new viewer after taking the socket over"
xdotool key --window "$win" q
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && err "Q did not quit"
[[ -e $sock ]] && err "the socket file stays after the viewer quit"

# 4. tev's port never saw a connection.
if [[ $(cat fake.status) == listening ]]; then
  sleep 2   # a connection still being read
  ours=$(grep -l -F "$tmp" fake.[0-9]* 2>/dev/null)
  [[ -n $ours ]] && err "the fake tev on 127.0.0.1:14158 got this test's files: $ours"
  others=$(ls fake.[0-9]* 2>/dev/null | wc -l)
  ((others == 0)) || echo "note: $others connection(s) to 127.0.0.1:14158, none naming our files"
elif ((fail == 0)); then
  echo "skipped: port 14158 is in use here, so the fake tev could not listen"
  exit 77
fi
exit $fail
