#!/usr/bin/env bash
# The window honours the image's colour space as export does (docs/colour.md): at 1:1, with
# --colorspace acescg, --display-space display-p3, and in the OCIO view (its default and
# another view), the picture equals `hdrtone export` with the same options (<= 1 LSB, the
# same backend: the GPU's apply pass); the status names the space, where it came from and
# the display.
source "$(dirname "$0")/viewer_common.sh"
"$HT_BIN" export "$image" -o "$tmp/default.png" --backend gpu 2>/dev/null ||
  { echo "skipped: export failed (no GPU?)"; exit 77; }

# same NAME OPTIONS...: the viewer with OPTIONS equals export with them.
same() {
  local name=$1 out at; shift
  "$HT_BIN" export "$image" -o "$tmp/$name.export.png" --backend gpu "$@" 2>>"$tmp/export.err" ||
    { err "export $*: $(tail -1 "$tmp/export.err")"; return; }
  out=$(shot "$tmp/$name.png" --msaa 1 --no-panels --keys "ctrl+0" "$@") ||
    { err "viewer $*: $(tail -3 "$tmp/viewer.err")"; return; }
  read -r _ _ _ _ _ _ at _ _ <<<"$(head -1 <<<"$out")"
  "$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at" --max-diff 1 \
    --max-off1 0 >/dev/null ||
    err "$* differs from export:" \
        "$("$HT_PNGDIFF" "$tmp/$name.png" "$tmp/$name.export.png" --crop "$at")"
  "$HT_PNGDIFF" "$tmp/$name.export.png" "$tmp/default.png" --max-diff 1 --max-off1 0 \
    >/dev/null && err "export $* gives the default picture: the test would not see a change"
  printf '%s\n' "$out" >"$tmp/$name.out"
}
same acescg --colorspace acescg
same p3 --display-space display-p3
same exposure_xyz --colorspace xyz --view exposure
same ocio --view ocio
same ocio_acescg --view ocio --colorspace acescg
same ocio_raw --view ocio --ocio-view Un-tone-mapped

# The status says the space, its source and the display.
grep -q '^status: colour ACEScg (AP1) from option, on sRGB' "$tmp/acescg.out" ||
  err "acescg: no colour line: $(grep '^status: colour' "$tmp/acescg.out")"
grep -q '^status: colour Rec. 709 / linear sRGB from default, on Display P3' "$tmp/p3.out" ||
  err "p3: no colour line: $(grep '^status: colour' "$tmp/p3.out")"
exit $fail
