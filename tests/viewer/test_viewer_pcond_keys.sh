#!/usr/bin/env bash
# The viewer's keys that switch the operator's settings give, at 1:1, exactly the pixels of
# `hdrtone export` with the matching option (<= 1 LSB), and the status says what is on: C
# (ceiling linear -> human -> none -> linear), O (foveal sampling), I (point samples), W
# (Radiance weights), K (forced linear), Shift+P (the pcond preset, whose mapping shows with
# pcond's name, and its foveal grid and point samples as `stats` reports them); Shift+V, A, C,
# H (pcond's human-vision options: the status as `stats` decides them, at the end).
source "$(dirname "$0")/viewer_common.sh"
"$HT_BIN" export "$image" -o "$tmp/default.png" 2>/dev/null ||
  { echo "skipped: export failed (no GPU?)"; exit 77; }

# same KEYS NAME EXPORT-OPTIONS...: the viewer after "1 KEYS" equals export with the options.
same() {
  local keys=$1 name=$2 out at; shift 2
  "$HT_BIN" export "$image" -o "$tmp/$name.export.png" "$@" 2>>"$tmp/export.err" ||
    { err "export $*"; return; }
  out=$(shot "$tmp/$name.png" --msaa 1 --no-panels --keys "ctrl+0 $keys") ||
    { err "viewer $keys: $(cat "$tmp/viewer.err")"; return; }
  read -r _ _ _ _ _ _ at _ _ <<<"$(head -1 <<<"$out")"
  "$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at" --max-diff 1 \
    --max-off1 0 >/dev/null ||
    err "keys '$keys' differ from export $*:" \
        "$("$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at")"
  "$HT_PNGDIFF" "$tmp/$name.export.png" "$tmp/default.png" --max-diff 1 --max-off1 0 >/dev/null &&
    echo "note: export $* gives the default picture for this image"
  printf '%s\n' "$out" >"$tmp/$name.out"
}
same "c" human --ceiling human
same "c c" none --ceiling none
same "o" foveal --sampling foveal
same "o i" points --sampling foveal --point-samples on
same "w" radiance --luminance radiance
same "k" linear --linear
same "P" pcond --preset pcond
same "P c" pcond_human --preset pcond --ceiling human

# The status text of each.
check() {  # check NAME PATTERN
  grep -qE -- "$2" "$tmp/$1.out" ||
    err "$1: the status has no /$2/: $(grep '^status: ' "$tmp/$1.out")"
}
out=$(shot "$tmp/x.png" --keys "c c c") || err "viewer c c c"
grep -q '^status: display .*ceiling linear ' <<<"$out" || err "c x3 is not the linear ceiling again"
check human 'ceiling human '
check none 'ceiling none '
check none 'mapping: histogram equali'
check foveal '^status: sampling foveal 40 deg, grid [0-9]+x[0-9]+, no point samples'
check points '^status: sampling foveal 40 deg, grid [0-9]+x[0-9]+ \+ [0-9]+ point samples'
check radiance 'weights Radiance'
check linear 'mapping: linear \(forced\)'
check linear 'linear forced'
check pcond 'preset pcond'
check pcond 'weights Radiance'
# The pcond preset: the mapping by both names, the grid and point samples as stats says.
"$HT_BIN" stats "$image" --json --preset pcond >"$tmp/pcond.json" 2>/dev/null ||
  err "stats --preset pcond"
want=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tonemap"]
print("sampling foveal %g deg, grid %dx%d + %d point samples|(pcond: %s)" %
      (t["fov"], t["foveal_grid"][0], t["foveal_grid"][1], t["point_samples"],
       t["mapping_pcond"]))' "$tmp/pcond.json")
echo "pcond preset, from stats: ${want%|*} / ${want#*|}"
grep -F "${want%|*}" "$tmp/pcond.out" >/dev/null || err "Shift+P: no '${want%|*}' in the status"
grep -F "${want#*|}" "$tmp/pcond.out" >/dev/null || err "Shift+P: no '${want#*|}' in the status"
grep '^status: ' "$tmp/pcond.out"
# Shift+P twice: the defaults again.
out=$(shot "$tmp/pp.png" --msaa 1 --no-panels --keys "ctrl+0 P P") || err "viewer P P"
read -r _ _ _ _ _ _ at _ _ <<<"$(head -1 <<<"$out")"
"$HT_PNGDIFF" "$tmp/pp.png" "$tmp/default.png" --crop "$at" --max-diff 1 --max-off1 0 >/dev/null ||
  err "Shift+P twice is not the default picture"
grep -q 'preset pcond' <<<"$out" && err "Shift+P twice still says preset pcond"

# The human-vision keys: Shift+V, A, C switch --veil, --acuity, --color-loss, Shift+H sets
# --human (the three and the human ceiling) unless all three are on, then switches the three
# off. human_keys NAME KEYS VIEW-OPTIONS STATS-OPTIONS...: the viewer with VIEW-OPTIONS after
# KEYS says in its status what `stats` decides with VIEW-OPTIONS and STATS-OPTIONS: each option
# off (not asked for), on (applied), or skipped for the reason pcond's tests give (no line when
# all are off); and the key re-rendered the frame (the settings are the frame's key).
human_keys() {
  local name=$1 keys=$2 view=$3 out want line; shift 3
  # shellcheck disable=SC2086  # VIEW-OPTIONS are words
  out=$(shot "$tmp/$name.png" --keys "$keys" $view) ||
    { err "viewer $keys: $(cat "$tmp/viewer.err")"; return; }
  # shellcheck disable=SC2086
  "$HT_BIN" stats "$image" --json $view "$@" >"$tmp/$name.json" 2>/dev/null ||
    { err "stats $view $*"; return; }
  want=$(python3 -c '
import json, re, sys
h = json.load(open(sys.argv[1]))["human"]
words = {"not_requested": "off", "applied": "on",
         "applied(no-op:all_sr<=1)": r"on \(no-op: sample radii <= 1 pixel\)",
         "skipped(range_bw<4.5)": r"skipped \(range [^)]*\)",
         "skipped(hacuity(L5)>=pix_per_deg)": r"skipped \(L5 acuity [^)]*\)",
         "skipped(L5>=5.62)": r"skipped \(L5 [^)]*cd/m\^2\)",
         "skipped(no_samples)": r"skipped \(no samples\)"}
got = [words[h[k]] for k in ("veil", "acuity", "colour")]
print("" if got == ["off"] * 3 else
      "^status: human vision: veil %s, acuity %s, colour loss %s$" % tuple(got))' "$tmp/$name.json")
  line=$(grep '^status: human vision' <<<"$out")
  if [[ -z $want ]]; then
    [[ -z $line ]] || err "keys '$keys': all off, yet the status says '$line'"
  else
    grep -qE -- "$want" <<<"$line" || err "keys '$keys' ($view): status '$line', stats: /$want/"
  fi
  grep -q '^frames \([0-9]*\) rendered \1$' <<<"$out" ||
    err "keys '$keys': not every frame rendered: $(grep '^frames ' <<<"$out")"
  printf '%s\n' "$out" >"$tmp/$name.out"
  echo "keys '$keys' $view: ${line:-no human line}"
}
human_keys veil V "" --veil
human_keys acuity A "" --acuity
human_keys colour C "" --color-loss
human_keys human H "" --human
human_keys human_off "H H" ""
human_keys veil_off "V V" ""
human_keys human_but_acuity "H A" "" --veil --color-loss
human_keys veil_then_all "V H" "" --human
human_keys narrow H "--lmin 1 --lmax 50" --human
human_keys bright H "--scale 10000" --human
check human 'ceiling human '
check human_off 'ceiling human '
grep -q 'skipped (range' "$tmp/narrow.out" ||
  err "--lmin 1 --lmax 50: the veil is not skipped for its range"
# A key that changes nothing renders nothing (so the check above means something).
out=$(shot "$tmp/a.png" --keys "a") || err "viewer a"
grep -q '^frames 2 rendered 1$' <<<"$out" ||
  err "key a (automatic range again): $(grep '^frames ' <<<"$out")"
exit $fail
