#!/usr/bin/env bash
# The documentation as a user gets it: the README is short (at most 250 lines) and shows the
# two set-up commands first; the generated tables in docs/ equal what the program prints
# (options, the viewer's keys, tev's keys beside them; scripts/update-readme writes them);
# every action of 'view --help' is in the key table; every relative link of README.md and
# docs/*.md points at a file of the repository.
set -u
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }
src=$HT_SOURCE_DIR
readme=$src/README.md
docs=("$readme" "$src"/docs/*.md)

lines=$(wc -l <"$readme")
((lines <= 250)) || no "README.md has $lines lines (at most 250)"

first=$(grep -m2 -E '^scripts/(run|test)' "$readme" | awk '{print $1}' | tr '\n' ' ')
[[ $first == "scripts/run scripts/test " ]] || no "the README's first commands are '$first'"

# section NAME: the lines between <!-- NAME:begin --> and <!-- NAME:end --> of the one file
# of README.md and docs/*.md that has them (empty, and a failure, unless exactly one has).
section() {
  local name=$1 files
  files=$(grep -lx -- "<!-- $name:begin -->" "${docs[@]}")
  if [[ $(grep -cx -- "<!-- $name:begin -->" "${docs[@]}" | awk -F: '{n += $NF} END {print n}') != 1 ||
        $(grep -cx -- "<!-- $name:end -->" "${docs[@]}" | awk -F: '{n += $NF} END {print n}') != 1 ]]; then
    no "README.md and docs/*.md need one <!-- $name:begin --> and one <!-- $name:end -->"
    return
  fi
  sed -n "/^<!-- $name:begin -->$/,/^<!-- $name:end -->$/p" "$files" | sed '1d;$d'
}
# check_section NAME FLAG: the section is exactly what 'hdrtone FLAG' prints.
check_section() {
  local name=$1 flag=$2 got expected
  got=$(section "$name")
  expected=$("$HT_BIN" "$flag") || { no "hdrtone $flag failed"; return; }
  if [[ -z $expected || "$got" != "$expected" ]]; then
    no "the $name section differs from 'hdrtone $flag' (run scripts/update-readme):"
    diff <(echo "$got") <(echo "$expected") >&2
  fi
}
check_section options --help-markdown
check_section keys --help-keys-markdown
check_section tev --help-tev-markdown

# The Markdown table and 'view --help' come from the same key table: every action that
# 'view --help' prints is in the key section.
keys=$(section keys)
n=0
while read -r action; do
  n=$((n + 1))
  grep -qF -- "| $action |" <<<"$keys" || no "key action '$action' not in the key table"
done < <("$HT_BIN" view --help | sed -n '/^keys:/,$p' | sed 1d | cut -c30- | grep -v '^$')
((n > 10)) || no "'view --help' listed $n actions"

# Relative links, [text](target) and ![alt](target), outside code: the target (without its
# #anchor) exists, relative to the file that links. A link into a missing file fails.
for f in "${docs[@]}"; do
  while read -r target; do
    path=${target%%#*}
    [[ -z $path ]] && continue
    [[ -e $(dirname "$f")/$path ]] || no "${f#"$src"/} links to '$target', which does not exist"
  done < <(awk '/^```/ {code = !code; next} !code' "$f" |
           grep -oE '\]\([^) ]+\)' | sed 's/^](//; s/)$//' | grep -vE '^[a-z]+:')
done
exit $fail
