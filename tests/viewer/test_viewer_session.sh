#!/usr/bin/env bash
# Sessions (docs/viewer.md, Sessions): Ctrl+Shift+S saves the window's session; --session
# reopens it to the same picture (the reference, the current image, the range, zoom, view mode
# and exposure restored); a missing image is said on stderr and in the window and the rest
# restored; a newer version, a truncated file, wrong types and huge numbers are refused with an
# error naming the file (exit 1, no crash).
source "$(dirname "$0")/viewer_common.sh"
cd "$tmp" || exit 1
cp "$image" "$tmp/copy.exr"
view() { timeout 120 "$HT_BIN" view --window 640x400 --frames 2 --no-panels "$@"; }

# The reference is the first image, the second shown, the range down, zoomed, exposure view.
keys="shift+r n comma comma equal equal ctrl+2 ctrl+e ctrl+shift+s"
view "$image" copy.exr --screenshot a.png --keys "$keys" >a.out 2>a.err ||
  { err "saving: $(cat a.err)"; exit 1; }
[[ -f hdrtone-session.json ]] || { err "Ctrl+Shift+S wrote no hdrtone-session.json"; exit 1; }
grep -q '"version": 1' hdrtone-session.json || err "no \"version\": 1 in the session"
grep -q "\"current\": \"$tmp/copy.exr\"" hdrtone-session.json ||
  err "the current image is not copy.exr as an absolute path: $(cat hdrtone-session.json)"
grep -q '"--view", "exposure"' hdrtone-session.json || err "the view mode is not saved"
grep -q '"compare": "wipe"' hdrtone-session.json || err "the comparison is not saved"

view --session hdrtone-session.json --screenshot b.png >b.out 2>b.err ||
  err "reopening: $(cat b.err)"
[[ $(head -1 a.out | cut -d' ' -f3-) == $(head -1 b.out | cut -d' ' -f3-) ]] ||
  err "another view after reopening: '$(head -1 a.out)' vs '$(head -1 b.out)'"
"$HT_PNGDIFF" a.png b.png --max-diff 0 --max-off1 0 >/dev/null ||
  err "the reopened session's picture differs from the saved window's"
view "$image" --screenshot plain.png >/dev/null 2>&1
"$HT_PNGDIFF" a.png plain.png --max-diff 0 >/dev/null 2>&1 &&
  err "the saved window looks like the default one: the keys changed nothing to restore"

# A missing image: said, the rest restored.
cp hdrtone-session.json missing.json
sed -i "s|$tmp/copy.exr|$tmp/gone.exr|g" missing.json
view --session missing.json --screenshot c.png >c.out 2>c.err; rc=$?
[[ $rc == 0 ]] || err "a missing image ended the viewer ($rc): $(cat c.err)"
grep -q "missing.json: missing: $tmp/gone.exr" c.err || err "stderr does not name the missing image"
grep -q "^message: .*gone.exr" c.out || err "the window does not say the missing image"
grep -q '^status: reference' c.out || err "the reference was not restored beside the missing image"

# Broken and hostile files: exit 1, the file named, no crash.
bad() {   # NAME CONTENT WHAT
  printf '%s' "$2" >"$1"
  view --session "$1" --screenshot x.png >x.out 2>x.err; rc=$?
  [[ $rc == 1 ]] || err "$3: exit $rc, not 1"
  grep -q "$1" x.err || err "$3: the message does not name the file: $(cat x.err)"
  echo "$3: $(cat x.err)"
}
bad newer.json "$(sed 's/"version": 1/"version": 2/' hdrtone-session.json)" "newer version"
grep -q "newer" x.err || err "a newer version is not said as such"
bad trunc.json "$(head -c 200 hdrtone-session.json)" "truncated"
bad types.json "$(sed 's/"view": {[^}]*}/"view": "wide"/' hdrtone-session.json)" "wrong type"
bad huge.json "$(sed 's/"zoom": [0-9.e+-]*/"zoom": 1e400/' hdrtone-session.json)" "huge zoom"
bad hugeexp.json "$(sed 's/"--exposure", "[^"]*"/"--exposure", "1e300"/' \
  hdrtone-session.json)" "huge exposure"
bad deep.json "$(printf '%0.s[' {1..5000})" "deep nesting"
bad empty.json "" "empty"
exit $fail
