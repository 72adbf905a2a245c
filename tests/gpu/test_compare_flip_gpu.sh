#!/usr/bin/env bash
# hdrtone compare --backend gpu against NVIDIA's FLIP tool (tests/cli/test_compare_flip.py) on
# the Cannon pairs of ../shared/flip-reference (all 24 take ~90 s on llvmpipe; the whole set:
# HT_COMPARE_ONLY= on a GPU), and the metrics and refusals of test_compare_metrics.py.
set -u
here=$(cd "$(dirname "$0")" && pwd)
probe=$(mktemp -d); trap 'rm -rf "$probe"' EXIT
printf 'PF\n1 1\n-1.0\n\0\0\x80\x3f\0\0\x80\x3f\0\0\x80\x3f' >"$probe/a.pfm"
if ! "$HT_BIN" compare "$probe/a.pfm" "$probe/a.pfm" --backend gpu >/dev/null 2>"$probe/err"; then
  grep -q "no GPU" "$probe/err" && { echo "skipped: no GPU"; exit 77; }
  cat "$probe/err" >&2; exit 1
fi
export HT_COMPARE_BACKEND=gpu
HT_COMPARE_ONLY=${HT_COMPARE_ONLY-Cannon} python3 "$here/../cli/test_compare_flip.py" || exit 1
python3 "$here/../cli/test_compare_metrics.py"
