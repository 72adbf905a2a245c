#!/usr/bin/env bash
# export's float output (.hdr, .pfm) through the batch pipeline (src/app/batch.c): several
# inputs into a directory, decoded and encoded in parallel (-j4), are byte for byte the
# one-at-a-time exports, in both formats, with the linear mapping's EXPOSURE line and with a
# human-vision option; a broken input in the middle is reported by name, the others written
# (exit 1, no file for it, no temporary file); a sequence into out/%04d.hdr is the stills
# (--adapt none, and adapted when the frames are all alike); SIGINT leaves whole files and
# no temporary one; a full disk fails per file.
set -u
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
tmp=$(mktemp -d)
cleanup() {
  mountpoint -q "$tmp/full" 2>/dev/null && umount "$tmp/full"
  rm -rf "$tmp"
}
trap cleanup EXIT
H=("$HT_BIN" export --backend cpu)
src=$HT_SOURCE_DIR/assets/default.exr

for i in 1 2 3; do   # different sizes and content: crops of different scales
  "$HT_MAKE_BENCH_EXR" "$src" "$tmp/s$i.exr" $((200 + 40 * i)) 150 zip >/dev/null ||
    err "make s$i.exr"
done
echo "not a picture" > "$tmp/broken.exr"

# Several inputs into a directory, then each alone: the same bytes.
for fmt in hdr pfm; do
  for opts in "" "--linear" "--veil"; do
    d=$tmp/dir_${fmt}_${opts#--}
    mkdir -p "$d"
    # shellcheck disable=SC2086 # opts is zero or one word
    "${H[@]}" -j4 "$tmp"/s{1,2,3}.exr -o "$d" --format "$fmt" $opts ||
      err "$fmt $opts: directory export"
    for i in 1 2 3; do
      # shellcheck disable=SC2086
      "${H[@]}" "$tmp/s$i.exr" -o "$tmp/one.$fmt" $opts || err "$fmt $opts: s$i alone"
      cmp -s "$d/s$i.$fmt" "$tmp/one.$fmt" ||
        err "$fmt $opts: s$i.$fmt of the batch differs from the single export"
    done
  done
done
grep -aq '^EXPOSURE=' "$tmp/dir_hdr_linear/s1.hdr" || err "--linear: no EXPOSURE line"
grep -aq '^EXPOSURE=' "$tmp/dir_hdr_/s1.hdr" && err "histogram mapping: an EXPOSURE line"
cmp -s "$tmp/dir_hdr_/s1.hdr" "$tmp/dir_hdr_veil/s1.hdr" && err "--veil changed nothing"

# A broken input in the middle: named once, the others written as alone, exit 1.
for fmt in hdr pfm; do
  d=$tmp/broken_$fmt
  mkdir "$d"
  "${H[@]}" -j4 "$tmp/s1.exr" "$tmp/broken.exr" "$tmp/s2.exr" -o "$d" --format "$fmt" \
    2> "$tmp/broken.err"
  [[ $? == 1 ]] || err "$fmt: a broken input: exit status not 1"
  [[ $(grep -c "broken.exr" "$tmp/broken.err") == 1 ]] ||
    err "$fmt: the error does not name the broken file once: $(cat "$tmp/broken.err")"
  for i in 1 2; do
    cmp -s "$d/s$i.$fmt" "$tmp/dir_${fmt}_/s$i.$fmt" || err "$fmt: s$i beside a broken input"
  done
  [[ ! -e $d/broken.$fmt && -z $(ls -A "$d" | grep '^\.') ]] ||
    err "$fmt: files left for the broken input: $(ls -A "$d")"
done

# A sequence: --adapt none is the stills byte for byte; static frames adapted too.
mkdir "$tmp/seq" "$tmp/none" "$tmp/adapted"
python3 "$HT_SOURCE_DIR/tests/tools/make_sequence.py" "$tmp/seq" 6 || err "make sequence"
"${H[@]}" "$tmp/seq/shot.%04d.pfm" -o "$tmp/none/%04d.hdr" --adapt none || err "seq none"
"${H[@]}" "$tmp/seq/shot.%04d.pfm" -o "$tmp/adapted/%04d.pfm" || err "seq adapted"
for f in 0000 0003 0005; do
  "${H[@]}" "$tmp/seq/shot.$f.pfm" -o "$tmp/still.hdr" || err "still $f"
  "${H[@]}" "$tmp/seq/shot.$f.pfm" -o "$tmp/still.pfm" || err "still $f"
  cmp -s "$tmp/none/$f.hdr" "$tmp/still.hdr" || err "sequence --adapt none: frame $f"
  cmp -s "$tmp/adapted/$f.pfm" "$tmp/still.pfm" || err "static sequence adapted: frame $f"
done
# Float output runs on the CPU: shards analysed on the GPU do not fit it, and the refusal
# says so.
mkdir -p "$tmp/shard"
if "$HT_BIN" analyze "$tmp/seq/shot.%04d.pfm" -o "$tmp/an" --backend gpu 2>/dev/null; then
  if "${H[@]}" "$tmp/seq/shot.%04d.pfm" --frames 3-4 --analysis "$tmp/an" \
      -o "$tmp/shard/%04d.hdr" 2>"$tmp/shard.err"; then
    err "float shards from a GPU analysis were accepted"
  fi
  grep -q 'analyze with --backend cpu' "$tmp/shard.err" || err "shard hint: $(cat "$tmp/shard.err")"
fi

# Interrupted by SIGINT (as Ctrl+C sends it) after a second: exit 130 unless it was done, every
# finished .hdr whole (the single export's bytes), no temporary file.
mkdir "$tmp/big" "$tmp/int"
for i in 0 1 2 3 4 5 6 7; do
  "$HT_MAKE_BENCH_EXR" "$src" "$tmp/big/b$i.exr" $((1200 + 8 * i)) 700 piz >/dev/null ||
    err "make b$i.exr"
done
timeout --preserve-status -s INT 1 "${H[@]}" -j2 "$tmp"/big/b*.exr -o "$tmp/int" --format hdr \
  2>/dev/null
status=$?
n=$(ls "$tmp/int"/*.hdr 2>/dev/null | wc -l)
(( status == 130 || n == 8 )) || err "interrupted: exit $status with $n of 8 files, want 130"
[[ -z $(ls -A "$tmp/int" | grep '^\.') ]] || err "interrupted: temporary files left"
for f in "$tmp/int"/*.hdr; do
  [[ -e $f ]] || continue
  b=$(basename "$f" .hdr)
  "${H[@]}" "$tmp/big/$b.exr" -o "$tmp/one.hdr" || err "$b alone"
  cmp -s "$f" "$tmp/one.hdr" || err "interrupted: $b.hdr is not the single export's"
done

# A full disk: each file reported, exit 1, no temporary file left.
if mkdir "$tmp/full" && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
  "${H[@]}" "$tmp"/s{1,2,3}.exr -o "$tmp/full" --format pfm 2> "$tmp/full.err"
  [[ $? == 1 ]] || err "full disk: exit status"
  grep -q "disk is full" "$tmp/full.err" || err "full disk: $(cat "$tmp/full.err")"
  [[ -z $(ls -A "$tmp/full" | grep '^\.') ]] || err "full disk: temporary files left"
else
  echo "note: cannot mount a tmpfs here: full disk not checked"
fi
exit $fail
