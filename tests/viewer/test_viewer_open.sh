#!/usr/bin/env bash
# Opening, as tev does (issue 21): a folder opens its image files (by extension, any case; a
# text file and a sub-folder are left out), sorted by name, N steps through them; one file
# opens that file only ([1/1]); a folder without images is refused by name. Parts are
# numbered from 0 in the viewer as in `--part`: E / Shift+E name the part that
# `stats --part K` shows (multipart.0001.exr, when there).
here=$(dirname "$0")
common=$here/viewer_common.sh
[[ -f $common ]] || common=$here/../viewer_common.sh
source "$common"
cd "$tmp"

# Four PFM images of distinct sizes (the screenshot line tells which is shown), and others.
mkdir -p pics/sub.pfm empty
python3 - <<'PY'
import struct
for name, w, h in (('pics/b.pfm', 31, 17), ('pics/a.pfm', 29, 13), ('pics/D.PFM', 23, 11),
                   ('pics/c.pfm', 37, 19)):
    with open(name, 'wb') as f:
        f.write(b'PF\n%d %d\n-1.0\n' % (w, h))
        f.write(struct.pack('<%df' % (w * h * 3), *([0.5] * (w * h * 3))))
open('pics/notes.txt', 'w').write('not an image\n')
open('empty/readme', 'w').write('no image here\n')
PY

# view_shot OUT ARGS...: the viewer's screenshot output (status lines, message).
view_shot() {
  local out=$1; shift
  timeout 120 "$HT_BIN" view "$@" --screenshot "$out" --frames 2 --msaa 1 2>>"$tmp/viewer.err"
}
# size_of OUTPUT: "WxH" of the shown image, from the screenshot line.
size_of() { head -1 <<<"$1" | awk '{print $5}'; }
# list_of OUTPUT: the "[i/n]" of the first status line.
list_of() { status_of "$1" '^status: ' | head -1 | grep -o '\[[0-9]*/[0-9]*\]'; }

# 1. A folder: its four images sorted by name (byte order: D.PFM first), N the next.
steps=("" "n" "n n" "n n n" "n n n n")
want_size=(23x11 29x13 31x17 37x19 23x11)
want_list=("[1/4]" "[2/4]" "[3/4]" "[4/4]" "[1/4]")
for i in "${!steps[@]}"; do
  out=$(view_shot f$i.png pics/ ${steps[$i]:+--keys "${steps[$i]}"}) ||
    { err "view pics/ keys '${steps[$i]}': $(tail -3 viewer.err)"; continue; }
  echo "folder, keys '${steps[$i]}': $(size_of "$out") $(list_of "$out")"
  [[ $(size_of "$out") == "${want_size[$i]}" && $(list_of "$out") == "${want_list[$i]}" ]] ||
    err "folder, keys '${steps[$i]}': $(size_of "$out") $(list_of "$out"), want" \
        "${want_size[$i]} ${want_list[$i]}"
done
# Without the trailing slash, the same.
out=$(view_shot g.png pics) || err "view pics: $(tail -3 viewer.err)"
[[ $(list_of "$out") == "[1/4]" ]] || err "view pics (no slash): $(list_of "$out")"

# 2. One file: that file only.
out=$(view_shot o.png pics/b.pfm) || err "view pics/b.pfm: $(tail -3 viewer.err)"
echo "one file: $(size_of "$out") $(list_of "$out")"
[[ $(size_of "$out") == 31x17 && $(list_of "$out") == "[1/1]" ]] ||
  err "one file opens $(size_of "$out") $(list_of "$out"), not b.pfm alone"

# 2b. Its folder's neighbours, one key away (once the action table binds Ctrl+PageDown /
# Ctrl+PageUp to viewer_neighbour_step): shown in the entry's place, the list stays [1/1].
if "$HT_BIN" view --help | grep -q 'Ctrl+PageDown'; then
  steps=("ctrl+Page_Down" "ctrl+Page_Up" "ctrl+Page_Down ctrl+Page_Down")
  want_size=(37x19 29x13 23x11)
  for i in "${!steps[@]}"; do
    out=$(view_shot n$i.png pics/b.pfm --keys "${steps[$i]}") || { err "neighbours"; continue; }
    echo "b.pfm, keys '${steps[$i]}': $(size_of "$out") $(list_of "$out")" \
         "$(grep '^message' <<<"$out")"
    [[ $(size_of "$out") == "${want_size[$i]}" && $(list_of "$out") == "[1/1]" ]] ||
      err "b.pfm, keys '${steps[$i]}': $(size_of "$out") $(list_of "$out"), want" \
          "${want_size[$i]} [1/1]"
  done
else
  echo "no key for the neighbours in the action table yet: not tested in the window"
fi

# 3. A folder without images: refused, naming it, exit status 1.
: >viewer.err
view_shot e.png empty && err "a folder without images opened"
grep -q "empty: no image in the folder" viewer.err || err "no message for it: $(cat viewer.err)"

# 4. Parts: the viewer's number is --part's (from 0).
mp=${HT_SHARED:-}/exr-samples/multipart.0001.exr
if [[ -f $mp ]]; then
  for keys in e E; do
    out=$(view_shot p.png "$mp" --keys "$keys") || { err "multipart $keys"; continue; }
    msg=$(grep '^message: part ' <<<"$out")
    pattern="s/^message: part ([0-9]+) of 10 \(from 0, as --part\) ('[^']*').*/\1 \2/"
    read -r k name <<<"$(sed -E "$pattern" <<<"$msg")"
    shown=$("$HT_BIN" stats "$mp" --part "$k" | grep '^shown')
    echo "key $keys: '$msg'; stats --part $k: '$shown'"
    status=$(status_of "$out" '^status: part ')
    [[ -n $k && $status == "status: part $k of 10 (from 0, as --part) $name"* ]] ||
      err "key $keys: the status says '$status', the message part $k $name"
    [[ -n $k ]] && grep -q "part $k $name," <<<"$shown" ||
      err "key $keys: the viewer's part $k $name is not stats --part $k ($shown)"
  done
  [[ $k == 9 ]] || err "Shift+E from part 0 of 10 is part $k, not 9"
  # --part 3 in the viewer opens the part that stats --part 3 shows, and calls it part 3.
  out=$(view_shot p3.png "$mp" --part 3) || err "multipart --part 3"
  name=$("$HT_BIN" stats "$mp" --part 3 | grep '^shown' | grep -o "'[^']*'" | head -1)
  status=$(status_of "$out" '^status: part ')
  echo "--part 3: '$status'; stats --part 3: $name"
  [[ -n $name && $status == "status: part 3 of 10 (from 0, as --part) $name"* ]] ||
    err "--part 3: the viewer says '$status', stats --part 3 shows $name"
else
  echo "multipart.0001.exr not found: part numbering not tested"
fi
exit $fail
