#!/usr/bin/env bash
# The viewer's window, read back through --screenshot after keys replayed with --keys (the same
# dispatch as real key presses):
#  1. at 1:1 with the overlay off, the image's pixels equal `hdrtone export` (<= 1 LSB), with
#     MSAA 1 and 4 (tone mapping comes before the resolve, so a 1:1 view resolves to the same);
#  2. range keys move the picture the expected way: the range down (',') brightens it, narrowing
#     ('[') clips more, widening (']') after narrowing brings the picture back;
#  3. the overlay, when on, changes the pixels of its panel and text;
#  4. frames whose picture cannot have changed re-present the last output.
source "$(dirname "$0")/viewer_common.sh"

"$HT_BIN" export "$image" -o "$tmp/export.png" ||
  { echo "skipped: export failed (no GPU?)"; exit 77; }

for msaa in 1 4; do
  line=$(shot "$tmp/one_$msaa.png" --msaa $msaa --no-panels --keys "f ctrl+0") ||
    { err "viewer (msaa $msaa): $(cat "$tmp/viewer.err")"; continue; }
  # "screenshot FILE WxH image WxH at X,Y zoom Z"
  read -r _ _ _ _ _ _ at _ zoom <<<"$line"
  [[ $zoom == 1 ]] || err "msaa $msaa: zoom is $zoom after '1', not 1"
  "$HT_PNGDIFF" "$tmp/one_$msaa.png" "$tmp/export.png" --crop "$at" --max-diff 1 --max-off1 0 ||
    err "msaa $msaa: window pixels differ from export (image at $at)"
done

shot "$tmp/default.png" --msaa 1 --no-panels >/dev/null || err "viewer default"
shot "$tmp/down.png" --msaa 1 --no-panels --keys "comma comma comma comma" >/dev/null ||
  err "viewer ,"
shot "$tmp/narrow.png" --msaa 1 --no-panels --keys "[ [ [ [" >/dev/null || err "viewer ["
shot "$tmp/rewiden.png" --msaa 1 --no-panels --keys "[ [ [ [ ] ] ] ]" >/dev/null ||
  err "viewer [ ]"
m0=$(mean "$tmp/default.png"); md=$(mean "$tmp/down.png")
mn=$(mean "$tmp/narrow.png"); mw=$(mean "$tmp/rewiden.png")
echo "mean: default $m0, range down $md, narrowed $mn, narrowed then widened $mw"
gt "$md" "$(python3 -c "print($m0 + 2)")" || err "range down did not brighten: $md vs $m0"
gt "$mn" "$(python3 -c "print($m0 + 2)")" ||
  err "narrowing did not clip more highlights: $mn vs $m0"
gt "$mn" "$(python3 -c "print($mw + 2)")" ||
  err "widening did not bring the highlights back: $mw vs $mn"
"$HT_PNGDIFF" "$tmp/rewiden.png" "$tmp/default.png" --max-diff 3 --max-off1 0.01 ||
  err "narrow x4 then widen x4 is not the automatic picture again"

shot "$tmp/overlay.png" --msaa 1 >/dev/null || err "viewer with overlay"
out=$("$HT_PNGDIFF" "$tmp/overlay.png" "$tmp/default.png" --max-off1 0.05)
[[ $? == 1 ]] || err "the overlay changes less than 5% of the window: $out"
echo "overlay vs none: $out"
# A frame whose picture depends on nothing that changed re-presents the last output: toggling
# the overlay twice over 6 frames runs the passes once; a range key runs them again.
out=$(shot "$tmp/same.png" --msaa 1 --frames 6 --keys "F1 F1") || err "viewer F1 F1"
[[ $(grep -o 'frames [0-9]* rendered [0-9]*' <<<"$out") == "frames 6 rendered 1" ]] ||
  err "overlay-only frames ran the passes: $(grep -o 'frames.*' <<<"$out")"
out=$(shot "$tmp/changed.png" --msaa 1 --frames 6 --keys "F1 F1 comma") || err "viewer F1 F1 ,"
[[ $(grep -o 'rendered [0-9]*' <<<"$out") == "rendered 2" ]] ||
  err "a range key did not render again: $(grep -o 'frames.*' <<<"$out")"
"$HT_PNGDIFF" "$tmp/same.png" "$tmp/overlay.png" --max-diff 0 >/dev/null ||
  err "the re-presented frame differs from a rendered one"
# M: every press changes the sample count (no count the driver does not offer), and the
# cycle comes back to where it started within four presses.
keys="" prev="" first=""
for i in 0 1 2 3 4; do
  out=$(shot "$tmp/m$i.png" --no-panels --keys "$keys") || err "viewer M x$i"
  cur=$(status_of "$out" 'MSAA' | grep -o 'MSAA [0-9]*')
  [[ -n $first ]] || first=$cur
  [[ $i == 0 || $cur != "$prev" ]] || err "M press $i left $cur unchanged"
  [[ $i == 0 || $cur != "$first" ]] || { back=1; break; }
  prev=$cur keys="$keys m"
done
[[ ${back:-0} == 1 ]] || err "M did not cycle back to $first"
exit $fail
