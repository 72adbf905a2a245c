#!/bin/bash
# bench --open (BENCHMARKS.md, "OpenEXRCore's progress"), run by the device tool from
# /work/main with build-dev-open33 (this branch's bundle and this script) and build-dev-main
# carried: of 4K and 8K PIZ, DWAA, uncompressed, ZIP files, this branch's hdrtone
# and main's alternating (order swapped in round 2), 2 rounds; JSON lines to $OUT/results.jsonl.
set -u
mkdir -p /tmp/b /tmp/m /tmp/f
tar xJf build-dev-open33/bundle.tar.xz -C /tmp/b && tar xJf build-dev-main/bundle.tar.xz -C /tmp/m
export OCIO=$PWD/assets/ocio/config.ocio __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
{ nproc; nvidia-smi -L; uname -r; } > "$OUT/machine.txt" 2>&1
t0=$(date +%s)
for s in 4k:3840:2160 8k:7680:4320; do
  IFS=: read -r name w h <<<"$s"
  for c in piz dwaa none zip; do
    LD_LIBRARY_PATH=/tmp/b /tmp/b/make_bench_exr assets/default.exr /tmp/f/${name}_$c.exr $w $h $c &
  done
done
wait
ls -la /tmp/f >> "$OUT/machine.txt"
echo "files made in $(( $(date +%s) - t0 )) s" >> "$OUT/machine.txt"
for round in 1 2; do
  order="open33 main"; [[ $round == 2 ]] && order="main open33"
  for f in /tmp/f/4k_piz.exr /tmp/f/4k_dwaa.exr /tmp/f/4k_none.exr /tmp/f/4k_zip.exr \
           /tmp/f/8k_piz.exr /tmp/f/8k_dwaa.exr /tmp/f/8k_none.exr /tmp/f/8k_zip.exr; do
    for who in $order; do
      dir=/tmp/b; [[ $who == main ]] && dir=/tmp/m
      r=$(LD_LIBRARY_PATH=$dir $dir/hdrtone bench --open "$f" --runs 7 --json 2>>"$OUT/err.txt")
      echo "{\"round\": $round, \"who\": \"$who\", \"r\": ${r:-null}}" >> "$OUT/results.jsonl"
    done
  done
  echo "round $round done at $(( $(date +%s) - t0 )) s" >> "$OUT/machine.txt"
done
