#!/usr/bin/env bash
# hdrtone export end to end: the GPU PNG has the right size and equals the CPU reference's
# (<= 1 LSB on >= 99.9 % of values, never > 2); several inputs to a directory; --help/--version.
set -u
. "$(dirname "$0")/testlib.sh"
need_samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$HT_BIN" --version | grep -q '^hdrtone ' || err "--version"
"$HT_BIN" --help | grep -q 'export' || err "--help"
"$HT_BIN" help | grep -q 'export' || err "help"
"$HT_BIN" export --help | grep -q -- '--ldmax' || err "export --help lists options"
"$HT_BIN" stats --help | grep -q -- '--json' || err "stats --help lists --json"

png_size() {
  python3 -c 'import struct,sys
d=open(sys.argv[1],"rb").read(24)
assert d[:8]==b"\x89PNG\r\n\x1a\n"
print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"
}

desk=$shared/exr-samples/Desk.exr
if "$HT_BIN" export "$desk" -o "$tmp/desk.png" 2>"$tmp/gpu.err"; then
  [[ $(png_size "$tmp/desk.png") == 644x874 ]] || err "desk.png size $(png_size "$tmp/desk.png")"
  "$HT_BIN" export "$desk" -o "$tmp/desk_cpu.png" --backend cpu || err "cpu export"
  "$HT_PNGDIFF" "$tmp/desk.png" "$tmp/desk_cpu.png" || err "GPU and CPU exports differ"
  # Options reach both backends alike.
  opts=(--bins 64 --ldmax 200 --drange 50 --transfer gamma:2.2 --scale 2)
  "$HT_BIN" export "$desk" -o "$tmp/o_gpu.png" "${opts[@]}" || err "export with options"
  "$HT_BIN" export "$desk" -o "$tmp/o_cpu.png" "${opts[@]}" --backend cpu ||
    err "cpu export with options"
  "$HT_PNGDIFF" "$tmp/o_gpu.png" "$tmp/o_cpu.png" || err "GPU and CPU differ with options"
  ! cmp -s "$tmp/o_gpu.png" "$tmp/desk.png" || err "options changed nothing"
  # The pixels are the tone-mapped picture, not black or clipped: mean in a sane range.
  mean=$("$HT_PNGDIFF" "$tmp/desk.png" "$tmp/desk.png" | awk '{print $NF}')
  python3 -c "import sys; m=float(sys.argv[1]); sys.exit(0 if 20 < m < 235 else 1)" "$mean" ||
    err "desk mean $mean"
else
  grep -q "no GPU" "$tmp/gpu.err" && echo "note: no GPU, GPU export not checked" ||
    err "export: $(cat "$tmp/gpu.err")"
fi

# Several inputs into a directory, by name; the CPU backend needs no GPU.
mkdir "$tmp/out"
"$HT_BIN" export --backend cpu -j2 "$shared/exr-samples/2by2.exr" \
  "$shared/exr-samples/venice_sunset_1k.hdr" -o "$tmp/out" || err "multi export (-j2)"
[[ $(png_size "$tmp/out/2by2.png") == 2x2 ]] || err "2by2.png"
[[ $(png_size "$tmp/out/venice_sunset_1k.png") == 1024x512 ]] || err "venice png"
# The data window is what is exported (multipart part 0: 877x876 inside 2048x1556).
"$HT_BIN" export --backend cpu "$shared/exr-samples/multipart.0001.exr" -o "$tmp/mp.png" ||
  err "multipart export"
[[ -f $tmp/mp.png && $(png_size "$tmp/mp.png") == 877x876 ]] || err "multipart data window"
# An image wider than any GPU texture here (llvmpipe: 16384): stats on the GPU equals the CPU's.
"$HT_MAKE_BENCH_EXR" "$HT_SOURCE_DIR/assets/default.exr" "$tmp/wide.exr" 20000 200 zip ||
  err "make wide.exr"
if "$HT_BIN" stats "$tmp/wide.exr" --json > "$tmp/wide_gpu.json" 2>"$tmp/wide.err"; then
  "$HT_BIN" stats "$tmp/wide.exr" --json --backend cpu > "$tmp/wide_cpu.json" ||
    err "wide: cpu stats"
  python3 - "$tmp/wide_gpu.json" "$tmp/wide_cpu.json" <<'PY' || err "wide: GPU and CPU stats differ"
import json, sys
g, c = (json.load(open(p)) for p in sys.argv[1:3])
assert g["width"] == 20000 and g["brightest"] == c["brightest"], (g["brightest"], c["brightest"])
assert g["tonemap"]["mapping"] == c["tonemap"]["mapping"]
assert sum(g["grey_histogram"]) == 20000 * 200
PY
else
  grep -q "no GPU" "$tmp/wide.err" || err "wide stats: $(cat "$tmp/wide.err")"
fi
exit $fail
