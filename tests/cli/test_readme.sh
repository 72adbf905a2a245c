#!/usr/bin/env bash
# The README tells the truth about the options and the viewer's keys (its generated sections
# equal what the tables print) and shows the two set-up commands first.
set -u
fail=0
readme=$HT_SOURCE_DIR/README.md
# check_section NAME FLAG: the README between <!-- NAME:begin --> and <!-- NAME:end --> is
# exactly what 'hdrtone FLAG' prints.
check_section() {
  local name=$1 flag=$2 section expected
  [[ $(grep -c "^<!-- $name:begin -->$" "$readme") == 1 &&
     $(grep -c "^<!-- $name:end -->$" "$readme") == 1 ]] ||
    { echo "FAIL: README needs one <!-- $name:begin --> and one <!-- $name:end -->" >&2
      fail=1; return; }
  section=$(sed -n "/<!-- $name:begin -->/,/<!-- $name:end -->/p" "$readme" | sed '1d;$d')
  expected=$("$HT_BIN" "$flag") || { echo "FAIL: hdrtone $flag failed" >&2; fail=1; return; }
  if [[ -z $expected || "$section" != "$expected" ]]; then
    echo "FAIL: README $name section differs from 'hdrtone $flag'" \
         "(run scripts/update-readme):" >&2
    diff <(echo "$section") <(echo "$expected") >&2
    fail=1
  fi
}
check_section options --help-markdown
check_section keys --help-keys-markdown
check_section tev --help-tev-markdown
first=$(grep -m2 -E '^scripts/(run|test)' "$readme" | awk '{print $1}' |
  tr '\n' ' ')
[[ $first == "scripts/run scripts/test " ]] ||
  { echo "FAIL: the first commands are '$first'" >&2; fail=1; }
# The Markdown table and 'view --help' come from the same key table: every action that
# 'view --help' prints is in the README's key section.
keys=$(sed -n '/<!-- keys:begin -->/,/<!-- keys:end -->/p' "$readme")
while read -r action; do
  grep -qF -- "| $action |" <<<"$keys" ||
    { echo "FAIL: key action '$action' not in the README" >&2; fail=1; }
done < <("$HT_BIN" view --help | sed -n '/^keys:/,$p' | sed 1d | cut -c30- | grep -v '^$')
exit $fail
