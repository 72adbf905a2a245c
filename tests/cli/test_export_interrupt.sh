#!/usr/bin/env bash
# A batch export interrupted by SIGINT (as Ctrl+C sends it) leaves every finished PNG whole and
# no temporary file; a broken file in the middle of a batch is reported by name and the others
# are exported (exit 1); the outputs equal single exports of the same files.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
err() { echo "FAIL: $*" >&2; fail=1; }
fail=0
for i in 0 1 2 3 4 5 6 7 8 9; do
  "$HT_MAKE_BENCH_EXR" "$HT_SOURCE_DIR/assets/default.exr" "$tmp/f$i.exr" $((1200 + 8 * i)) 700 \
    piz >/dev/null || { echo "FAIL: make inputs"; exit 1; }
done
mkdir -p "$tmp/out" "$tmp/ref"

# Interrupted once the first files are out. (A background job of a script starts with SIGINT
# ignored, which a shell cannot undo: python restores the default before exec.)
python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' \
  "$HT_BIN" export "$tmp"/f*.exr -o "$tmp/out" -j2 2>"$tmp/int.log" &
pid=$!
for _ in $(seq 600); do
  [[ -n $(ls "$tmp/out"/*.png 2>/dev/null) ]] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -INT $pid 2>/dev/null
wait $pid
status=$?
n=$(ls "$tmp/out"/*.png 2>/dev/null | wc -l)
echo "interrupted with status $status after $n of 10 files"
(( n < 10 )) || echo "note: the batch finished before the signal (fast machine); still checked"
(( status == 130 || n == 10 )) || err "interrupted export exited $status, want 130 (SIGINT)"
leftover=$(find "$tmp/out" -name '.*' -type f | wc -l)
(( leftover == 0 )) || err "$leftover temporary file(s) left: $(find "$tmp/out" -name '.*')"
for f in "$tmp/out"/*.png; do
  [[ -e $f ]] || continue
  python3 - "$f" <<'PY' || err "$f is not a whole PNG"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
p, ok = 8, False
while p < len(d):
    n, t = struct.unpack(">I4s", d[p:p + 8])
    assert zlib.crc32(d[p + 4:p + 8 + n]) == struct.unpack(">I", d[p + 8 + n:p + 12 + n])[0]
    p += 12 + n
    ok = t == b"IEND"
assert ok and p == len(d)
PY
done
# Every finished file (not only the first: the interrupt must not have cut another short).
for f in "$tmp/out"/*.png; do
  [[ -e $f ]] || continue
  b=$(basename "$f" .png)
  "$HT_BIN" export "$tmp/$b.exr" -o "$tmp/ref/$b.png" 2>/dev/null || err "single export of $b"
  cmp -s "$f" "$tmp/ref/$b.png" || err "$b.png differs from a single export"
done

# A broken file in the middle: named, the rest exported, exit 1.
rm -rf "$tmp/out"; mkdir "$tmp/out"
head -c 5000 "$tmp/f5.exr" > "$tmp/f5b.exr"
"$HT_BIN" export "$tmp/f3.exr" "$tmp/f5b.exr" "$tmp/f4.exr" -o "$tmp/out" 2>"$tmp/bad.log"
status=$?
(( status == 1 )) || err "a broken input: exit $status, want 1"
grep -q "f5b.exr" "$tmp/bad.log" || err "the broken file is not named: $(cat "$tmp/bad.log")"
[[ -s $tmp/out/f3.png && -s $tmp/out/f4.png && ! -e $tmp/out/f5b.png ]] ||
  err "outputs: $(ls "$tmp/out")"
exit $fail
