#!/usr/bin/env bash
# Real X key events (xdotool) to a running viewer: S writes ./NAME_tonemapped.png equal to
# `hdrtone export`, a second S a new name (never overwriting), Q quits with status 0.
source "$(dirname "$0")/viewer_common.sh"
command -v xdotool >/dev/null || { echo "skipped: no xdotool"; exit 77; }
"$HT_BIN" export --backend gpu "$image" -o "$tmp/export.png" ||
  { echo "skipped: export failed (no GPU?)"; exit 77; }
stem=$(basename "${image%.*}")

cd "$tmp"
"$HT_BIN" "$image" --ldmax 100 2>"$tmp/viewer.err" & pid=$!
win=$(timeout 60 xdotool search --sync --onlyvisible --name "^hdrtone" | head -1)
[[ -n $win ]] || { err "no viewer window"; kill "$pid"; exit 1; }

# wait_for FILE: up to 60 s.
wait_for() { for _ in $(seq 600); do [[ -s $1 ]] && return 0; sleep 0.1; done; return 1; }
# The load is asynchronous and S before the image shows does nothing: S again every 3 s until
# the first PNG is there (a slow export taken twice only makes -2 early; the test still holds).
for _ in $(seq 20); do
  xdotool key --window "$win" s
  for _ in $(seq 30); do [[ -s ${stem}_tonemapped.png ]] && break 2; sleep 0.1; done
done
wait_for "${stem}_tonemapped.png" || err "S wrote no ${stem}_tonemapped.png"
xdotool key --window "$win" s
wait_for "${stem}_tonemapped-2.png" || err "a second S wrote no ${stem}_tonemapped-2.png"
"$HT_PNGDIFF" "${stem}_tonemapped.png" "$tmp/export.png" --max-diff 0 --max-off1 0 ||
  err "S's PNG differs from hdrtone export"
grep -q "exported .*${stem}_tonemapped.png" "$tmp/viewer.err" ||
  err "the export path is not on stderr"

# Q quits (the window is gone before the key's release, so xdotool may complain).
xdotool key --window "$win" q 2>/dev/null
for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  err "Q did not quit"
  kill "$pid"
fi
wait "$pid"; status=$?
[[ $status == 0 ]] || err "viewer exit status $status after Q"
exit $fail
