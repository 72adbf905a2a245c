#!/usr/bin/env bash
# A fuzz target's smoke run (CTest, label `fuzz`): SEEDER... writes the seeds into DIR, then
# TARGET (built with tests/fuzz/driver.c) runs each seed and its mutations, and the inputs that
# long runs found (tests/fuzz/seeds/TARGET/, kept as regression seeds).
#   smoke.sh TARGET DIR SEEDER...
set -euo pipefail
target=$1 dir=$2
shift 2
rm -rf "$dir"
mkdir -p "$dir"
"$@" "$dir"
found=$(dirname "$0")/seeds/$(basename "$target")
[[ -d $found ]] && cp "$found"/* "$dir/"
n=$(find "$dir" -type f | wc -l)
((n > 0)) || { echo "smoke.sh: no seeds written into $dir" >&2; exit 1; }
"$target" -m 200 "$dir"
