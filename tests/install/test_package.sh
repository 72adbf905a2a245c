#!/usr/bin/env bash
# The installed layout (cmake --install into a temporary prefix) and the Debian package:
# the program runs from the prefix and opens its installed default image; the man page lists
# every option of the table and every key; the completion offers the commands and an
# option's choices; the desktop entry validates; the .deb holds exactly the layout and
# declares its run-time dependencies.
set -u
build=$(dirname "$HT_BIN")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

cmake --install "$build" --prefix "$tmp/usr" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
expected="bin/hdrtone
include/hdrtone/hdrtone.h
lib/cmake/hdrtone/hdrtoneConfig.cmake
lib/cmake/hdrtone/hdrtoneConfigVersion.cmake
lib/cmake/hdrtone/hdrtoneTargets-CONFIG.cmake
lib/cmake/hdrtone/hdrtoneTargets.cmake
lib/hdrtone/hdrtone-oiio.so
lib/libhdrtone.so
lib/libhdrtone.so.0
lib/libhdrtone.so.0.1.0
lib/pkgconfig/hdrtone.pc
share/applications/hdrtone.desktop
share/bash-completion/completions/hdrtone
share/doc/hdrtone/BENCHMARKS.md
share/doc/hdrtone/README.md
share/doc/hdrtone/examples/headless/CMakeLists.txt
share/doc/hdrtone/examples/headless/headless.c
share/doc/hdrtone/examples/scene/CMakeLists.txt
share/doc/hdrtone/examples/scene/scene.c
share/hdrtone/default.exr
share/hdrtone/ocio/config.ocio
share/icons/hicolor/128x128/apps/hdrtone.png
share/icons/hicolor/256x256/apps/hdrtone.png
share/icons/hicolor/48x48/apps/hdrtone.png
share/man/man1/hdrtone.1.gz
share/mime/packages/hdrtone.xml"
# The documentation: README.md's docs/ beside it, every file of the source tree's docs/.
expected=$( (echo "$expected"; cd "$HT_SOURCE_DIR" && find docs -type f |
             sed 's#^#share/doc/hdrtone/#') | LC_ALL=C sort)
# Files and links (the library's), the CMake targets file of any build type as CONFIG.
config_name() { sed 's#hdrtoneTargets-[a-z]*\.cmake$#hdrtoneTargets-CONFIG.cmake#'; }
layout=$(cd "$tmp/usr" && find . -type f -o -type l | sed 's#^\./##' | config_name | LC_ALL=C sort)
[[ $layout == "$expected" ]] ||
  { no "installed layout:"; diff <(echo "$expected") <(echo "$layout") >&2; }

# The installed program finds its own default image (the viewer opens it with no argument;
# stats shows the same lookup is by installation, not by the source tree).
"$tmp/usr/bin/hdrtone" stats "$tmp/usr/share/hdrtone/default.exr" --backend cpu >/dev/null ||
  no "installed hdrtone cannot read its default image"
# ... and OpenImageIO's formats through its installed module (oiio_load.c looks there before
# the build folder; the loader's own trace names the file it opened).
/usr/bin/python3 -c 'import numpy, tifffile, sys; tifffile.imwrite(sys.argv[1], numpy.ones((4, 4, 3), numpy.float32))' "$tmp/one.tif"
loaded=$(LD_DEBUG=files "$tmp/usr/bin/hdrtone" stats "$tmp/one.tif" --backend cpu 2>&1 >/dev/null |
         grep -o '/[^ ]*hdrtone-oiio.so' | sort -u)
[[ $loaded == "$tmp/usr/bin/../lib/hdrtone/hdrtone-oiio.so" || $loaded == "$tmp/usr/lib/hdrtone/hdrtone-oiio.so" ]] ||
  no "installed hdrtone did not read a TIFF through its installed module (loaded: $loaded)"
# ... and its bundled OCIO config (the refusal names the config it read).
why=$(env -u OCIO "$tmp/usr/bin/hdrtone" export "$tmp/usr/share/hdrtone/default.exr" --view ocio \
      --ocio-display nope --backend cpu -o "$tmp/ocio.png" 2>&1) &&
  no "an unknown OCIO display was not refused"
grep -qF "$tmp/usr/share/hdrtone/ocio/config.ocio" <<<"$why" ||
  no "installed hdrtone does not find its OCIO config: $why"

man=$(MANWIDTH=200 man -l "$tmp/usr/share/man/man1/hdrtone.1.gz" 2>/dev/null)
[[ -n $man ]] || no "man page does not render"
while read -r opt; do
  grep -qF -- "$opt" <<<"$man" || no "man page lacks $opt"
done < <("$HT_BIN" --help-markdown | grep -o '^| `[^`]*`' | grep -o -- '--[a-z0-9-]*')
while read -r key; do
  grep -qF -- "$key" <<<"$man" || no "man page lacks the key '$key'"
done < <("$HT_BIN" --help-keys-markdown | sed -n '3,$p' | cut -d'|' -f3 |
         sed 's/^ *//; s/ *$//; s/`//g')

# Completion: commands at the first word, an option's choices after it.
complete_words() {
  bash -c 'source /usr/share/bash-completion/bash_completion 2>/dev/null
           source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hdrtone
           printf "%s\n" "${COMPREPLY[@]}"' _ \
    "$tmp/usr/share/bash-completion/completions/hdrtone" "$@"
}
[[ $(complete_words hdrtone ex) == *export* ]] || no "completion of 'hdrtone ex'"
[[ $(complete_words hdrtone export --ceiling "") == *human* ]] || no "completion of --ceiling"
[[ $(complete_words hdrtone stats --js) == *--json* ]] || no "completion of 'stats --js'"

desktop-file-validate "$tmp/usr/share/applications/hdrtone.desktop" || no "desktop entry"
grep -q 'MimeType=image/x-exr;image/vnd.radiance;image/x-portable-floatmap;' \
  "$tmp/usr/share/applications/hdrtone.desktop" || no "desktop entry MIME types"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \
  "$tmp/usr/share/mime/packages/hdrtone.xml" || no "MIME XML"
python3 - "$tmp/usr/share/icons/hicolor" <<'PY' || no "icons"
import struct, sys
for s in (48, 128, 256):
    d = open("%s/%dx%d/apps/hdrtone.png" % (sys.argv[1], s, s), "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24]) == (s, s), s
PY

# The package: the same files under /usr, and dependencies found by dpkg-shlibdeps.
(cd "$build" && cpack -G DEB -B "$tmp/dist" >/dev/null 2>&1) || { no "cpack"; exit 1; }
deb=$(ls "$tmp"/dist/hdrtone_*_amd64.deb 2>/dev/null | head -1)
[[ -f $deb ]] || { no "no dist/hdrtone_*_amd64.deb"; exit 1; }
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1 ~ /^l/ ? $(NF - 2) : $NF}' |
  sed 's#^\./usr/##' | config_name | LC_ALL=C sort)
[[ $files == "$expected" ]] ||
  { no "package file list:"; diff <(echo "$expected") <(echo "$files") >&2; }
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libglfw3 libtinyexr libc6 libegl1 libopenimageio; do
  [[ $depends == *"$lib"* ]] || no "Depends lacks $lib: $depends"
done
exit $fail
