#!/usr/bin/env bash
# Sequences end to end (tests/tools/make_sequence.py makes them): a static sequence gives
# identical frames, equal to the still; a step x20 gives a brighter frame that decays
# monotonically, 63 % of the way (of the adapted log-average) within T*fps +- 50 % frames
# for exp:T, to the still (<= 1 LSB); human adapts to light faster than to dark; --adapt
# none is the stills byte for byte; analyze + export --analysis in shards under GNU
# parallel equals one process byte for byte; missing and broken frames are reported by
# number (exit 1) and the others written; missing analyses are named and nothing written;
# the GPU agrees with the CPU within 1 LSB.
set -u
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen=$HT_SOURCE_DIR/tests/tools/make_sequence.py
cpu=(--backend cpu)
mkdir "$tmp/static" "$tmp/step" "$tmp/dark"
python3 "$gen" "$tmp/static" 12 || err "make static"
python3 "$gen" "$tmp/step" 48 8 20 || err "make step"
python3 "$gen" "$tmp/dark" 48 8 0.05 || err "make dark step"

# rgb24 streams of 64 x 48 frames: frame means, largest difference of two streams' frames.
means() { python3 -c '
import sys; d = open(sys.argv[1], "rb").read(); n = 64 * 48 * 3
print(" ".join("%.4f" % (sum(d[i:i + n]) / n) for i in range(0, len(d), n)))' "$1"; }
maxdiff() { python3 -c '
import sys; a, b = (open(p, "rb").read() for p in sys.argv[1:3]); n = 64 * 48 * 3
fa, fb = int(sys.argv[3]) * n, int(sys.argv[4]) * n
x, y = a[fa:fa + n], b[fb:fb + n]
print(max(abs(p - q) for p, q in zip(x, y)) if len(x) == len(y) == n else 999)' "$@"; }
still() { "$HT_BIN" export "$1" -o - --format rgb24 "${cpu[@]}"; }

# Static: every frame the same, and the still's.
"$HT_BIN" export "$tmp/static/shot.%04d.pfm" -o - --format rgb24 "${cpu[@]}" > "$tmp/s.raw" ||
  err "static export"
[[ $(means "$tmp/s.raw" | tr ' ' '\n' | sort -u | wc -l) == 1 ]] || err "static frames differ"
still "$tmp/static/shot.0005.pfm" > "$tmp/s5.raw"
[[ $(maxdiff "$tmp/s.raw" "$tmp/s5.raw" 5 0) == 0 ]] || err "static frame 5 is not the still"

# A step x20 at frame 8, exp:0.1 at 24 fps (T*fps = 2.4 frames).
"$HT_BIN" export "$tmp/step/shot.####.pfm" -o - --format rgb24 --adapt exp:0.1 "${cpu[@]}" \
  > "$tmp/e.raw" || err "step export"
for f in 8 47; do still "$tmp/step/shot.00$(printf %02d $f).pfm"; done > "$tmp/stills.raw"
python3 - "$(means "$tmp/e.raw")" "$(means "$tmp/stills.raw")" <<'PY' ||
  err "step: $(means "$tmp/e.raw")"
import sys
m = [float(v) for v in sys.argv[1].split()]
still8 = float(sys.argv[2].split()[0])
assert len(m) == 48, len(m)
assert m[8] > still8 + 10, (m[8], still8)               # brighter just after the step
assert all(m[i + 1] <= m[i] for i in range(8, 47)), m    # decays monotonically
assert m[9] < m[8] and m[7] == m[0]
PY
[[ $(maxdiff "$tmp/e.raw" "$tmp/stills.raw" 47 1) -le 1 ]] || err "step: frame 47 is not the still"
# The adapted log-average goes 63 % of the way within 2.4 +- 1.2 frames.
"$HT_BIN" stats "$tmp/step/shot.%04d.pfm" --json --adapt exp:0.1 "${cpu[@]}" > "$tmp/e.json" ||
  err "step stats"
python3 - "$tmp/e.json" <<'PY' || err "step: the adaptation's time constant"
import json, math, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert [r["frame"] for r in rows] == list(range(48))
la = [math.log(r["tonemap"]["log_average"]) for r in rows]
before, after = la[7], la[47]
done = [(v - before) / (after - before) for v in la]
n = next(j for j in range(8, 48) if done[j] >= 1 - math.exp(-1)) - 8 + 1
assert 1.2 <= n <= 3.6, (n, done[8:14])
assert rows[47]["adapt"]["rate"] > 0 and rows[0]["adapt"]["exact"]
PY

# human: a step up (light adaptation) is done far sooner than a step down (dark).
for s in step dark; do
  "$HT_BIN" stats "$tmp/$s/shot.%04d.pfm" --json "${cpu[@]}" > "$tmp/h_$s.json" || err "human $s"
done
python3 - "$tmp/h_step.json" "$tmp/h_dark.json" <<'PY' || err "human: light vs dark adaptation"
import json, math, sys
light = [math.log(json.loads(l)["tonemap"]["log_average"]) for l in open(sys.argv[1])]
dark = [math.log(json.loads(l)["tonemap"]["log_average"]) for l in open(sys.argv[2])]
# the still's log-average after the step: ln 20 brighter / darker than before
fl = (light[12] - light[7]) / math.log(20)
fd = (dark[7] - dark[12]) / math.log(20)
assert fl > 0.9 and fd < fl / 2, (fl, fd)
PY
"$HT_BIN" export "$tmp/step/shot.%04d.pfm" -o - --format rgb24 "${cpu[@]}" > "$tmp/h.raw" ||
  err "human export"
python3 - "$(means "$tmp/h.raw")" <<'PY' || err "human: $(means "$tmp/h.raw")"
import sys
m = [float(v) for v in sys.argv[1].split()]
assert m[8] > m[7] + 10 and all(m[i + 1] <= m[i] for i in range(8, 47)), m
PY
[[ $(maxdiff "$tmp/h.raw" "$tmp/stills.raw" 47 1) -le 1 ]] || err "human: frame 47 is not the still"

# --adapt none: the stills, byte for byte (PNG files by the pattern).
mkdir "$tmp/none"
"$HT_BIN" export "$tmp/step/shot.%04d.pfm" --frames 6-10 --adapt none -o "$tmp/none/%03d.png" \
  "${cpu[@]}" || err "none export"
for f in 6 7 8 9 10; do
  "$HT_BIN" export "$tmp/step/shot.$(printf %04d $f).pfm" -o "$tmp/one.png" "${cpu[@]}"
  cmp -s "$tmp/one.png" "$tmp/none/$(printf %03d $f).png" || err "none: frame $f is not the still"
done
[[ $(ls "$tmp/none" | wc -l) == 5 ]] || err "none: $(ls "$tmp/none")"

# Shards under GNU parallel: analyze and export in three pieces = one process.
mkdir "$tmp/full" "$tmp/shard"
"$HT_BIN" export "$tmp/step/shot.%04d.pfm" -o "$tmp/full/%04d.png" "${cpu[@]}" || err "full"
if command -v parallel >/dev/null; then
  parallel --halt now,fail=1 "$HT_BIN" analyze "$tmp/step/shot.%04d.pfm" --frames {} \
    -o "$tmp/an" "${cpu[@]}" ::: 0-15 16-31 32-47 || err "parallel analyze"
  parallel --halt now,fail=1 "$HT_BIN" export "$tmp/step/shot.%04d.pfm" --frames {} \
    --analysis "$tmp/an" -o "$tmp/shard/%04d.png" "${cpu[@]}" ::: 0-9 10-30 31-47 ||
    err "parallel export"
  for f in "$tmp"/full/*.png; do
    cmp -s "$f" "$tmp/shard/${f##*/}" || err "shard ${f##*/} differs from one process"
  done
  [[ $(ls "$tmp/shard" | wc -l) == 48 ]] || err "shards wrote $(ls "$tmp/shard" | wc -l) frames"
  # A missing analysis: named, nothing written.
  rm "$tmp/an/analysis.000000003.txt"
  "$HT_BIN" export "$tmp/step/shot.%04d.pfm" --frames 10-12 --analysis "$tmp/an" \
    -o "$tmp/none2/%04d.png" "${cpu[@]}" 2> "$tmp/an.err"
  [[ $? == 1 ]] || err "missing analysis: exit status"
  grep -q "frame 3: analysis .*analysis.000000003.txt" "$tmp/an.err" ||
    err "missing analysis not named: $(cat "$tmp/an.err")"
  [[ ! -e $tmp/none2 ]] || err "missing analysis: frames written"
else
  err "GNU parallel is not installed (scripts/setup)"
fi

# A missing and a broken frame: reported by number, the others written, exit 1.
mkdir "$tmp/gap" "$tmp/gapout"
cp "$tmp"/static/shot.000[0-9].pfm "$tmp/gap/"
rm "$tmp/gap/shot.0004.pfm"
echo junk > "$tmp/gap/shot.0006.pfm"
"$HT_BIN" export "$tmp/gap/shot.%04d.pfm" -o "$tmp/gapout/%04d.png" "${cpu[@]}" 2> "$tmp/gap.err"
[[ $? == 1 ]] || err "gap: exit status"
grep -q "frame 4: .*shot.0004.pfm: no such file" "$tmp/gap.err" || err "gap: $(cat "$tmp/gap.err")"
grep -q "frame 6: .*shot.0006.pfm" "$tmp/gap.err" || err "broken: $(cat "$tmp/gap.err")"
want="0000.png 0001.png 0002.png 0003.png 0005.png 0007.png 0008.png 0009.png "
[[ $(ls "$tmp/gapout" | tr '\n' ' ') == "$want" ]] ||
  err "gap: wrote $(ls "$tmp/gapout")"
"$HT_BIN" stats "$tmp/gap/shot.%04d.pfm" --json "${cpu[@]}" > "$tmp/gap.json" 2> "$tmp/gaps.err"
[[ $? == 1 && $(wc -l < "$tmp/gap.json") == 8 ]] || err "gap: stats"
grep -q "frame 4: " "$tmp/gaps.err" || err "gap: stats $(cat "$tmp/gaps.err")"
"$HT_BIN" export "$tmp/gap/shot.%04d.pfm" -o "$tmp/x.png" "${cpu[@]}" 2>/dev/null
[[ $? == 2 ]] || err "a sequence into one file is a usage error"
"$HT_BIN" export "$tmp/gap/shot.%04d.pfm" --adapt fast -o - --format y4m 2>/dev/null
[[ $? == 2 ]] || err "--adapt fast is a usage error"

# The GPU: within 1 LSB of the CPU, frame by frame.
if "$HT_BIN" export "$tmp/step/shot.%04d.pfm" -o - --format rgb24 --adapt exp:0.1 \
     > "$tmp/g.raw" 2> "$tmp/g.err"; then
  python3 - "$tmp/g.raw" "$tmp/e.raw" <<'PY' || err "GPU and CPU sequences differ"
import sys
a, b = (open(p, "rb").read() for p in sys.argv[1:3])
assert len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) <= 1
PY
else
  grep -q "no GPU" "$tmp/g.err" && echo "note: no GPU, GPU sequence not checked" ||
    err "GPU export: $(cat "$tmp/g.err")"
fi
exit $fail
