# Sourced by the CLI's shell tests: failures are collected (err, then `exit $fail`), and a test
# whose tools or samples are missing is skipped (exit 77, as ctest's SKIP_RETURN_CODE).
fail=0
err() { echo "FAIL: $*" >&2; fail=1; }

# Sets py to a Python that imports every module named (the one on PATH, else Debian's).
need_python() {
  py=
  local p
  for p in python3 /usr/bin/python3; do
    if "$p" -c "import $(IFS=,; echo "$*")" 2>/dev/null; then py=$p; return; fi
  done
  echo "skipped: python3 with $* (scripts/setup)"; exit 77
}

# Sets shared to ../shared (HT_SHARED), which must hold the EXR samples.
need_samples() {
  shared=${HT_SHARED:-}
  [[ -d $shared/exr-samples ]] || { echo "skipped: no shared samples"; exit 77; }
}
