#!/usr/bin/env bash
# The README tells the truth about the options and shows the two set-up commands first.
set -u
fail=0
readme=$HT_SOURCE_DIR/README.md
section=$(sed -n '/<!-- options:begin -->/,/<!-- options:end -->/p' "$readme" | sed '1d;$d')
if [[ "$section" != "$("$HT_BIN" --help-markdown)" ]]; then
  echo "FAIL: README options section differs from 'hdrtone --help-markdown' (run scripts/update-readme):" >&2
  diff <(echo "$section") <("$HT_BIN" --help-markdown) >&2
  fail=1
fi
first=$(grep -m2 -E '^scripts/(run|test)' "$readme" | awk '{print $1}' | tr '\n' ' ')
[[ $first == "scripts/run scripts/test " ]] || { echo "FAIL: the first commands are '$first'" >&2; fail=1; }
# Every action of the viewer's key table (as 'view --help' prints it) is in the README.
while read -r action; do
  grep -qF -- "| $action |" "$readme" || { echo "FAIL: key action '$action' not in the README" >&2; fail=1; }
done < <("$HT_BIN" view --help | sed -n '/^keys:/,$p' | sed 1d | cut -c30- | grep -v '^$')
exit $fail
