#!/usr/bin/env bash
# libhdrtone as a user gets it: installed into a temporary prefix, it exports the hdrtone_*
# names only; the installed examples build out of tree (both with CMake's
# find_package(hdrtone), the headless one also with pkg-config); headless writes the PNG
# `hdrtone export` writes, byte for byte; and the scene example (under Xvfb) shows fewer dark
# fringe pixels at bright edges when it tone-maps every sample than in the shortcut order.
set -u
build=$(dirname "$HT_BIN")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

prefix=$tmp/usr
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
lib=$prefix/lib/libhdrtone.so
readelf -d "$lib" | grep -q 'SONAME.*\[libhdrtone\.so\.0\]' || no "SONAME is not libhdrtone.so.0"
others=$(nm -D --defined-only "$lib" | awk '{print $NF}' | grep -v '^hdrtone_')
[[ -z $others ]] || no "exported besides hdrtone_*: $(echo $others)"
nm -D --defined-only "$lib" | grep -q ' hdrtone_run$' || no "hdrtone_run is not exported"

# A sanitizer build's library needs its runtime in the program too.
san=
readelf -d "$lib" | grep -q 'libasan' && san="-fsanitize=address,undefined"
examples=$prefix/share/doc/hdrtone/examples
build_example() {   # build_example NAME: out of tree, against the prefix, into $tmp/NAME
  cmake -S "$examples/$1" -B "$tmp/$1" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror $san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
    >"$tmp/$1.log" 2>&1 && cmake --build "$tmp/$1" >>"$tmp/$1.log" 2>&1 ||
    { no "the $1 example does not build:"; cat "$tmp/$1.log" >&2; }
}
build_example headless
PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc -std=c11 -Wall -Wextra -Werror $san \
  -o "$tmp/headless_pc" "$examples/headless/headless.c" \
  $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs hdrtone) ||
  no "the headless example does not build with pkg-config"

# headless == export, byte for byte, through the installed library (not the build tree's).
export LD_LIBRARY_PATH=$prefix/lib
samples=(exr-samples/Desk.exr exr-samples/venice_sunset_1k.hdr exr-samples/Cannon.exr)
for s in "${samples[@]}"; do
  in=${HT_SHARED:-}/$s
  [[ -f $in ]] || in=$HT_SOURCE_DIR/assets/default.exr
  name=$(basename "$s")
  # --backend gpu: the library is the GPU pipeline (auto picks it on a hardware renderer)
  "$HT_BIN" export --backend gpu "$in" -o "$tmp/export-$name.png" ||
    { no "export $name"; continue; }
  for prog in "$tmp/headless/headless" "$tmp/headless_pc"; do
    [[ -x $prog ]] || continue
    "$prog" "$in" "$tmp/lib-$name.png" || { no "$(basename "$prog") $name"; continue; }
    cmp -s "$tmp/export-$name.png" "$tmp/lib-$name.png" ||
      no "$(basename "$prog") $name: not the PNG hdrtone export writes"
  done
done
[[ $(ldd "$tmp/headless/headless" | grep libhdrtone) == *"$prefix/lib/"* ]] ||
  no "headless does not run with the installed libhdrtone"

# The scene, in both orders (the same frame of the same scene).
build_example scene
command -v xvfb-run >/dev/null || { echo "skipped the scene: no xvfb-run"; exit $fail; }
[[ -x $tmp/scene/scene ]] || exit $fail
for order in correct shortcut; do
  args=(--screenshot "$tmp/$order.png" --frames 3)
  [[ $order == shortcut ]] && args+=(--shortcut)
  timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24" "$tmp/scene/scene" "${args[@]}" \
    >"$tmp/$order.out" 2>&1 || { no "scene ($order):"; cat "$tmp/$order.out" >&2; }
done
[[ -f $tmp/correct.png && -f $tmp/shortcut.png ]] || exit $fail
grep -q '^frame [0-9]*: histogram' "$tmp/correct.out" ||
  no "scene printed no histogram analysis: $(head -1 "$tmp/correct.out")"
# A dark fringe pixel: a dark pixel (grey <= 60 of 255) with a bright 4-neighbour (>= 120, the
# sky, the edges, the lamps): a step from bright to dark with no antialiased pixel between.
# Tone-mapping every sample gives the pixels an edge crosses their share of each side; the
# shortcut gives them the luminance the resolve averaged, which the response maps to one
# side, so the steps come back.
fringes() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
data, pos, idat = open(sys.argv[1], 'rb').read(), 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    if kind == b'IHDR':
        w, h = struct.unpack('>II', data[pos + 8:pos + 16])
    elif kind == b'IDAT':
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, stride, grey = zlib.decompress(idat), w * 3 + 1, []
for y in range(h):   # hdrtone_write_png filters every row with Sub
    row = bytearray(raw[y * stride + 1:(y + 1) * stride])
    for i in range(3, w * 3):
        row[i] = (row[i] + row[i - 3]) & 255
    grey.append([(54 * row[3 * x] + 183 * row[3 * x + 1] + 19 * row[3 * x + 2] + 128) >> 8
                 for x in range(w)])
print(sum(grey[y][x] <= 60 and max(grey[y][x - 1], grey[y][x + 1], grey[y - 1][x],
                                   grey[y + 1][x]) >= 120
          for y in range(1, h - 1) for x in range(1, w - 1)))
PY
}
correct=$(fringes "$tmp/correct.png") shortcut=$(fringes "$tmp/shortcut.png")
echo "dark fringe pixels: $correct tone-mapping every sample, $shortcut resolving first"
(( correct * 11 < shortcut * 10 )) ||
  no "tone-mapping every sample should leave at least 10% fewer dark fringe pixels"
exit $fail
