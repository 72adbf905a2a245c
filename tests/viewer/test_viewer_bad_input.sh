#!/usr/bin/env bash
# A file that cannot be loaded: the viewer reports it (stderr), keeps running, shows the next
# file on PageDown, and exits normally; the screenshot hook's "error:" and "bar:" lines say why
# nothing shows (also for a missing file); no display at all gives a clear message and status 1.
source "$(dirname "$0")/viewer_common.sh"
printf 'not an image' >"$tmp/bad.exr"
: >"$tmp/empty.hdr"

line=$(timeout 120 "$HT_BIN" "$tmp/bad.exr" "$tmp/empty.hdr" "$image" --keys "Page_Down Page_Down" \
       --screenshot "$tmp/next.png" --frames 2 2>"$tmp/err.txt") ||
  err "viewer failed on bad files: $(cat "$tmp/err.txt")"
grep -q "bad.exr" "$tmp/err.txt" || err "no error for bad.exr on stderr"
grep -q "empty.hdr" "$tmp/err.txt" || err "no error for empty.hdr on stderr"
[[ $line == *" image 644x874 "* || $line == *" image "[1-9]* ]] ||
  err "PageDown did not reach the good file: $line"

line=$(timeout 120 "$HT_BIN" "$tmp/bad.exr" --screenshot "$tmp/bad.png" --frames 2 \
       2>"$tmp/err2.txt") ||
  err "viewer exits on a bad file"
m=$(mean "$tmp/bad.png")
gt "$m" 5 || err "the window with a bad file is black (no error text?): mean $m"
# The screenshot hook says why nothing shows, in the status bar and on an error line.
grep -q "^error: $tmp/bad.exr: " <<<"$line" || err "no 'error:' line for bad.exr: $line"
grep -q "^bar: $tmp/bad.exr: " <<<"$line" || err "the status bar does not name bad.exr: $line"
line=$(timeout 120 "$HT_BIN" view "$tmp/missing.exr" --screenshot "$tmp/missing.png" --frames 2 \
       2>/dev/null)
grep -q "^error: $tmp/missing.exr: .*No such file" <<<"$line" ||
  err "no 'error:' line for a missing file: $line"

out=$(env -u DISPLAY -u WAYLAND_DISPLAY timeout 60 "$HT_BIN" "$image" 2>&1); status=$?
[[ $status == 1 ]] || err "no display: status $status, not 1"
[[ $out == *"hdrtone export"* ]] ||
  err "no display: the message does not point to hdrtone export: $out"
exit $fail
