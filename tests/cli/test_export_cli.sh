#!/usr/bin/env bash
# export's command line without surprises (issue 25): the output folders are made; an unknown
# extension or a name without one is an error that lists the formats (never PNG data under
# another name); a pattern with one still is an error; -o - is PNG; options that do not apply
# warn; an option given twice is an error; a broken sequence frame is reported once; the test
# hooks are out of the user's help and listed by --help-test-hooks.
set -u
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
python3 "$HT_SOURCE_DIR/tests/tools/make_sequence.py" "$tmp" 5 || exit 1
still=$tmp/shot.0001.pfm
H=("$HT_BIN" export --backend cpu)
is_png() { [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' ') == 89504e470d0a1a0a ]]; }

# Usage error: exit 2, nothing on stdout, stderr matching PATTERN, no file at CHECK.
usage() {
  local pattern=$1 check=$2 out rc
  shift 2
  out=$("${H[@]}" "$@" 2>"$tmp/usage.err"); rc=$?
  [[ $rc == 2 && -z $out ]] || err "usage error expected (rc $rc) for: $*"
  grep -q -- "$pattern" "$tmp/usage.err" || err "'$pattern' not in: $(cat "$tmp/usage.err")"
  [[ ! -e $check ]] || err "$check written by: $*"
}
# Unknown extensions and none: an error naming the formats.
usage "does not write .tif files; the formats: png (.png), jpeg (.jpg), hdr (.hdr)" \
  "$tmp/x.tif" "$still" -o "$tmp/x.tif"
usage "does not write .exr files" "$tmp/x.exr" "$still" -o "$tmp/x.exr"
usage "names no format" "$tmp/noext" "$still" -o "$tmp/noext"
usage "does not write .tif files" "$tmp/y.tif" "$still" -o "$tmp/y.tif" --format png
"${H[@]}" "$still" -o "$tmp/noext" --format png && is_png "$tmp/noext" || err "--format png"
# A sequence's pattern with one still: no file named like the pattern, no folder made.
usage "sequence's pattern, but the input is one image" "$tmp/pat" "$still" -o "$tmp/pat/%04d.png"
usage "sequence's pattern" "$tmp/pat" "$still" -o "$tmp/pat/####.png"
# An option given twice.
usage "-o/--output: given twice" "$tmp/a.png" "$still" -o "$tmp/a.png" -o "$tmp/b.png"
usage "--bins: given twice" "$tmp/a.png" "$still" --bins 64 --bins=32 -o "$tmp/a.png"
[[ ! -e $tmp/b.png ]] || err "a repeated -o wrote its file"

# The folders the outputs need are made: a file's, a folder named with '/', the folder of
# several inputs, a sequence's pattern's.
"${H[@]}" "$still" -o "$tmp/new/sub/x.png" || err "-o new/sub/x.png"
is_png "$tmp/new/sub/x.png" || err "new/sub/x.png is no PNG"
"${H[@]}" "$still" -o "$tmp/newdir/" || err "-o newdir/"
is_png "$tmp/newdir/shot.0001.png" || err "newdir/shot.0001.png missing"
"${H[@]}" "$tmp/shot.0001.pfm" "$tmp/shot.0002.pfm" -o "$tmp/several" --format jpeg ||
  err "several inputs into a new folder"
[[ -s $tmp/several/shot.0001.jpg && -s $tmp/several/shot.0002.jpg ]] || err "several: files"
"${H[@]}" "$tmp/shot.%04d.pfm" -o "$tmp/seqout/deep/%04d.png" --adapt none ||
  err "sequence into new folders"
[[ $(ls "$tmp/seqout/deep" | wc -l) == 5 ]] || err "sequence: $(ls "$tmp/seqout/deep")"
touch "$tmp/afile"
"${H[@]}" "$still" -o "$tmp/afile/x.png" 2>"$tmp/blocked.err"
[[ $? == 1 ]] && grep -q "afile: cannot make the folder: a file is in the way" "$tmp/blocked.err" ||
  err "a file in the way of the folder: $(cat "$tmp/blocked.err")"

# -o - is PNG unless --format says otherwise: the same bytes as the file.
"${H[@]}" "$still" -o - >"$tmp/stdout.png" || err "-o - without --format"
"${H[@]}" "$still" -o "$tmp/file.png" || err "-o file.png"
cmp -s "$tmp/stdout.png" "$tmp/file.png" || err "-o - is not the PNG of -o file.png"

# Options that do not apply warn, and the export still succeeds.
warns() {
  local pattern=$1
  shift
  "${H[@]}" "$@" 2>"$tmp/warn.err" || err "exit status with: $*"
  grep -q -- "$pattern" "$tmp/warn.err" || err "no warning '$pattern' for: $*"
}
warns "--quality is JPEG's, AVIF's and JPEG XL's: ignored for png" "$still" -o "$tmp/q.png" --quality 50
warns "--depth is PNG's, AVIF's and JPEG XL's: ignored for jpeg" "$still" -o "$tmp/q.jpg" --depth 8
warns "--adapt is a sequence's" "$still" -o "$tmp/q2.png" --adapt none
"${H[@]}" "$still" -o "$tmp/q.jpg" --quality 50 2>"$tmp/quiet.err" || err "jpeg --quality"
[[ ! -s $tmp/quiet.err ]] || err "a warning where the option applies: $(cat "$tmp/quiet.err")"

# A broken frame and a missing one, each reported once, the others written.
echo junk >"$tmp/shot.0002.pfm"
rm "$tmp/shot.0003.pfm"
"${H[@]}" "$tmp/shot.%04d.pfm" -o "$tmp/broken/%04d.png" 2>"$tmp/broken.err"
[[ $? == 1 ]] || err "a broken sequence exits 0"
"$HT_BIN" stats --backend cpu --json "$tmp/shot.%04d.pfm" >"$tmp/broken.json" 2>"$tmp/stats.err"
# Each frame named once in each command's messages.
once() { [[ $(grep -c "$1" "$2") == 1 ]] || err "$1 not reported once: $(cat "$2")"; }
for log in "$tmp/broken.err" "$tmp/stats.err"; do
  once shot.0002.pfm "$log"
  once shot.0003.pfm "$log"
done
[[ $(ls "$tmp/broken") == $'0000.png\n0001.png\n0004.png' ]] || err "broken: $(ls "$tmp/broken")"
[[ $(wc -l <"$tmp/broken.json") == 3 ]] || err "stats: $(wc -l <"$tmp/broken.json") frames, not 3"

# The test hooks leave the user's help, the README table and the completion.
for hook in --keys --screenshot; do
  ! "$HT_BIN" view --help | grep -q -- "$hook " || err "view --help shows $hook"
  ! "$HT_BIN" --help-markdown | grep -q -- "\`$hook " || err "--help-markdown shows $hook"
  ! "$HT_BIN" --help-completion | grep -q -- " $hook\$" || err "completion offers $hook"
  "$HT_BIN" --help-test-hooks | grep -q -- "\`$hook " || err "--help-test-hooks lacks $hook"
done
exit $fail
