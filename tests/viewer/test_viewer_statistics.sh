#!/usr/bin/env bash
# Issue 4 in the viewer: X marks the brightest pixel (the position and value `stats` reports,
# shown in the status text, a magenta cross-hair on screen) and the 8 brightest peaks 16 px
# apart (the positions `stats --peaks 8` reports, cyan squares); Tab cycles the histogram
# panel log-luminance -> RGBA -> grey -> log-luminance, the RGBA panel with red bars, the grey
# one without, and back to the same pixels.
source "$(dirname "$0")/viewer_common.sh"
"$HT_BIN" stats "$image" --json --peaks 8 >"$tmp/stats.json" 2>"$tmp/stats.err" ||
  { echo "skipped: stats failed (no GPU?)"; exit 77; }
read -r bx by bax bay bY < <(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["brightest"]
print(b["x"], b["y"], b["abs_x"], b["abs_y"], b["luminance"])' "$tmp/stats.json")
python3 -c '
import json, sys
for i, p in enumerate(json.load(open(sys.argv[1]))["peaks"]):
    print("peak: %d %d,%d" % (i + 1, p["x"], p["y"]))' "$tmp/stats.json" >"$tmp/peaks.want"
echo "stats: brightest $bx,$by (abs $bax,$bay) Y $bY, $(wc -l <"$tmp/peaks.want") peaks"

# X with the overlay hidden: the marks are drawn all the same.
out=$(shot "$tmp/plain.png" --msaa 1 --no-panels --keys "ctrl+0") ||
  err "viewer: $(cat "$tmp/viewer.err")"
out=$(shot "$tmp/marks.png" --msaa 1 --no-panels --keys "ctrl+0 x") ||
  err "viewer x: $(cat "$tmp/viewer.err")"
line=$(status_of "$out" '^status: brightest ')
echo "$line"
[[ $line == "status: brightest $bx,$by (abs $bax,$bay) "* ]] ||
  err "X: brightest not at $bx,$by: $line"
python3 -c 'import sys; y = float(sys.argv[1].split(" Y ")[1].split()[0])
sys.exit(abs(y - float(sys.argv[2])) > 1e-3 * float(sys.argv[2]))' \
  "$line" "$bY" || err "X: brightest Y differs from stats ($bY): $line"
diff <(grep '^peak: ' <<<"$out") "$tmp/peaks.want" >&2 ||
  err "X: the marked peaks are not stats --peaks 8's"
# --peaks and --min-distance reach the viewer's marks: the same as stats with them.
"$HT_BIN" stats "$image" --json --peaks 3 --min-distance 40 | python3 -c '
import json, sys
for i, p in enumerate(json.load(sys.stdin)["peaks"]):
    print("peak: %d %d,%d" % (i + 1, p["x"], p["y"]))' >"$tmp/peaks3.want"
out3=$(shot "$tmp/marks3.png" --msaa 1 --no-panels --peaks 3 --min-distance 40 --keys "ctrl+0 x") ||
  err "viewer --peaks 3: $(cat "$tmp/viewer.err")"
[[ $(wc -l <"$tmp/peaks3.want") == 3 ]] ||
  err "stats --peaks 3 gave $(wc -l <"$tmp/peaks3.want") peaks"
diff <(grep '^peak: ' <<<"$out3") "$tmp/peaks3.want" >&2 ||
  err "X with --peaks 3 --min-distance 40 differs from stats"
read -r _ _ _ _ _ _ at _ zoom <<<"$(head -1 <<<"$out")"
ax=${at%,*} ay=${at#*,}
[[ $zoom == 1 ]] || err "zoom $zoom after '1'"
# The cross-hair's right arm starts 5 px right of the pixel's centre and is 18 px long.
cx=$((ax + bx)) cy=$((ay + by))
rgb=$(pixels "$tmp/marks.png" "$((cx + 14)),$cy")
echo "cross-hair pixel at $((cx + 14)),$cy: $rgb"
python3 -c 'import sys; r, g, b = map(int, sys.argv[1:])
sys.exit(not (r > 200 and g < 140 and b > 170))' $rgb ||
  err "X: no magenta cross-hair right of the brightest pixel ($rgb)"
# Each peak's square: its left side 7 px left of the centre (peak 1 lies under the cross-hair).
n=0 pts=()
while read -r _ _ xy; do pts+=("$((ax + ${xy%,*} - 7)),$((ay + ${xy#*,}))"); done <"$tmp/peaks.want"
while read -r r g b; do
  [[ $r != - ]] && ((r < 140 && g > 180 && b > 180)) && n=$((n + 1))
done < <(pixels "$tmp/marks.png" "${pts[@]}")
echo "cyan squares found at $n of ${#pts[@]} peaks"
((n >= ${#pts[@]} - 2)) || err "X: cyan squares at only $n of ${#pts[@]} peaks"
"$HT_PNGDIFF" "$tmp/marks.png" "$tmp/plain.png" --max-off1 0.0005 >/dev/null &&
  err "X: the picture did not change"
"$HT_PNGDIFF" "$tmp/marks.png" "$tmp/plain.png" --max-diff 255 --max-off1 0.05 >/dev/null ||
  err "X: more than 5% of the picture changed"

# Tab: the dock's histogram plot (where the screenshot's "histogram X,Y WxH" line says) in
# its three modes.
shot "$tmp/log.png" --msaa 1 >/dev/null || err "viewer overlay"
shot "$tmp/rgba.png" --msaa 1 --keys "Tab" >/dev/null || err "viewer Tab"
shot "$tmp/grey.png" --msaa 1 --keys "Tab Tab" >/dev/null || err "viewer Tab Tab"
out=$(shot "$tmp/back.png" --msaa 1 --keys "Tab Tab Tab") || err "viewer Tab x3"
read -r _ pos size <<<"$(grep '^histogram ' <<<"$out")"
px0=${pos%,*} py0=${pos#*,} px1=$((${pos%,*} + ${size%x*} - 1)) py1=$((${pos#*,} + ${size#*x} - 1))
((${size%x*} > 100 && ${size#*x} > 40)) || err "no histogram plot in the dock ($pos $size)"
red='r > g + 90 and r > b + 90'
nl=$(count_colour "$tmp/log.png" $px0 $py0 $px1 $py1 "$red")
nr=$(count_colour "$tmp/rgba.png" $px0 $py0 $px1 $py1 "$red")
ng=$(count_colour "$tmp/grey.png" $px0 $py0 $px1 $py1 "$red")
echo "red pixels in the panel (every 2nd): log $nl, RGBA $nr, grey $ng"
((nr > 100)) || err "Tab: the RGBA panel shows no red bars ($nr)"
((ng == 0)) || err "Tab Tab: the grey panel has red pixels ($ng)"
"$HT_PNGDIFF" "$tmp/rgba.png" "$tmp/grey.png" --max-off1 0.01 >/dev/null &&
  err "RGBA and grey panels look the same"
"$HT_PNGDIFF" "$tmp/rgba.png" "$tmp/log.png" --max-off1 0.01 >/dev/null &&
  err "RGBA and log panels look the same"
# (The GPU time in the text may differ.)
"$HT_PNGDIFF" "$tmp/back.png" "$tmp/log.png" --max-diff 255 --max-off1 0.001 >/dev/null ||
  err "Tab x3 is not the log-luminance panel again"
exit $fail
