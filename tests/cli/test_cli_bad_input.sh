#!/usr/bin/env bash
# Bad input through the CLI, with real broken files: non-zero exit, one clear message naming
# the file, no crash (exit status < 128), no file left behind, an existing output untouched.
set -u
. "$(dirname "$0")/testlib.sh"
need_samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

: > empty.exr
python3 - <<'PY'
import random, struct
random.seed(7)
open("random.exr", "wb").write(bytes(random.randrange(256) for _ in range(4096)))
open("random.hdr", "wb").write(b"#?RADIANCE\n" + bytes(random.randrange(256) for _ in range(2048)))
PY
cp "$shared/exr-samples/Desk.exr" desk_full.exr
head -c 20 desk_full.exr > trunc_20.exr
head -c 400 desk_full.exr > trunc_400.exr
head -c $(( $(stat -c %s desk_full.exr) / 2 )) desk_full.exr > trunc_half.exr
head -c $(( $(stat -c %s desk_full.exr) - 1 )) desk_full.exr > trunc_minus1.exr
head -c 100000 "$shared/exr-samples/venice_sunset_1k.hdr" > trunc.hdr
python3 - "$shared/exr-samples/2by2.exr" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(b"dataWindow\0box2i\0") + len(b"dataWindow\0box2i\0") + 4
d[i:i+16] = struct.pack("<iiii", 0, 0, 2000000000, 2000000000)
open("absurd.exr", "wb").write(d)
PY
"$HT_BIN" export --backend cpu "$shared/exr-samples/2by2.exr" -o real.png ||
  err "setup: export 2by2"
head -c 60 real.png > trunc_png.exr   # a PNG (opened by content) cut inside its header

cp real.png existing.png
before=$(sha256sum existing.png)
for f in missing.exr empty.exr random.exr random.hdr trunc_20.exr trunc_400.exr trunc_half.exr \
         trunc_minus1.exr trunc.hdr absurd.exr trunc_png.exr; do
  for backend in cpu gpu; do
    "$HT_BIN" export --backend $backend "$f" -o existing.png 2>msg; rc=$?
    (( rc != 0 && rc < 128 )) || err "$f ($backend): exit $rc"
    grep -q "$f" msg || err "$f ($backend): message does not name the file: $(cat msg)"
    [[ $(wc -l < msg) -le 2 ]] || err "$f ($backend): more than one message: $(cat msg)"
    [[ $(sha256sum existing.png) == "$before" ]] || err "$f ($backend): existing output changed"
    "$HT_BIN" stats "$f" --backend $backend >out 2>msg; rc=$?
    (( rc != 0 && rc < 128 )) || err "stats $f: exit $rc"
    grep -q "$f" msg || err "stats $f: message does not name the file"
  done
done
ls | grep -E '\.tmp|^\.png|~$' && err "temporary files left behind"

# A batch whose only file fails at once ends: a worker that had let go of the lock to help
# with encodes used to miss the last wake and wait for ever (about half of such runs hung).
for i in $(seq 1 30); do
  timeout 20 "$HT_BIN" export --backend cpu missing.exr -o x.png 2>/dev/null
  (( $? != 124 )) || { err "export of a missing file hung (run $i)"; break; }
done

# Destinations: a missing folder is made (tests/cli/test_export_cli.sh has the other cases);
# a parent that is a file is refused, naming it.
"$HT_BIN" export --backend cpu "$shared/exr-samples/2by2.exr" -o nodir/sub/out.png ||
  err "a missing folder was not made"
[[ -s nodir/sub/out.png ]] || err "nodir/sub/out.png not written"
"$HT_BIN" export --backend cpu "$shared/exr-samples/2by2.exr" -o real.png/out.png 2>msg &&
  err "file as dir accepted"
grep -q "real.png: cannot make the folder: a file is in the way" msg ||
  err "file-as-dir: message $(cat msg)"

# One bad input among good ones: the others are exported, the exit status says failure.
mkdir multi
"$HT_BIN" export --backend cpu empty.exr "$shared/exr-samples/2by2.exr" -o multi 2>msg &&
  err "multi: exit 0 with a bad input"
[[ -f multi/2by2.png ]] || err "multi: good input not exported"
[[ ! -e multi/empty.png ]] || err "multi: output for the bad input"

# An output that is an input, or two inputs with one output: refused before anything is written.
cp "$shared/exr-samples/2by2.exr" self.exr
before_self=$(sha256sum self.exr)
"$HT_BIN" export --backend cpu self.exr -o self.exr 2>msg
[[ $? == 2 ]] || err "export onto its input: not a usage error"
[[ $(sha256sum self.exr) == "$before_self" ]] || err "export onto its input changed it"
grep -q "self.exr" msg || err "self-overwrite message: $(cat msg)"
mkdir c1 c2 clash
cp "$shared/exr-samples/2by2.exr" c1/x.exr
cp "$shared/exr-samples/Garden.exr" c2/x.exr
"$HT_BIN" export --backend cpu c1/x.exr c2/x.exr -o clash 2>msg
[[ $? == 2 ]] || err "output clash: not a usage error"
[[ -z $(ls clash) ]] || err "output clash: something was written"
grep -q "c1/x.exr" msg && grep -q "c2/x.exr" msg ||
  err "clash message names both inputs: $(cat msg)"

# --part/--layer on a format with one image is an error, as on a single-part EXR.
"$HT_BIN" stats --backend cpu "$shared/exr-samples/venice_sunset_1k.hdr" --part 1 >/dev/null \
  2>msg && err "--part 1 on .hdr accepted"
grep -q "no part '1'" msg || err "--part on .hdr: message $(cat msg)"
# No pixel with Y > 0: the luminance statistics are null, not 0.
python3 -c "import struct
open('black.pfm','wb').write(b'PF\n2 1\n-1.0\n' + struct.pack('<6f', *[0.0] * 6))"
"$HT_BIN" stats --backend cpu black.pfm --json | python3 -c 'import json, sys
l = json.load(sys.stdin)["luminance"]
sys.exit(any(v is not None for v in l.values()))' ||
  err "black image: luminance statistics are not null"

# Usage errors.
"$HT_BIN" export --bins 0 real.png -o x.png 2>msg; [[ $? == 2 ]] || err "--bins 0 not a usage error"
"$HT_BIN" export --lmin 5 "$shared/exr-samples/2by2.exr" -o x.png 2>msg
[[ $? == 2 ]] || err "--lmin alone not a usage error"
"$HT_BIN" frobnicate --nope 2>msg; (( $? != 0 && $? < 128 )) || err "unknown option"
[[ ! -e x.png ]] || err "x.png written on usage error"
exit $fail
