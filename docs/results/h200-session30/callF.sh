#!/usr/bin/env bash
# Session 30 call F (one H200): what auto mode does with syr2k from process to process, this tree
# (06400b0): LARGE and STANDARD, five processes each against one fresh history cache (as the bench
# runner keeps it), HETERO_LOG=debug, native beside each process.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
for size in LARGE STANDARD; do
  rm -rf /tmp/xdg
  for r in 1 2 3 4 5; do
    a="--size $size --repeat 3 --no-check"
    out=$(h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=debug $new/bench/polybench-syr2k $a --platform Hetero --device all 2>&1)
    echo "== $size process $r: $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+'), native $($new/bench/polybench-syr2k $a --platform NVIDIA --device gpu 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
    echo "$out" | grep -E "history|split syr2k" | sed 's/^hetero: //'
  done
done > $OUT/syr2k-auto.txt 2>&1
grep -E "^==" $OUT/syr2k-auto.txt
grep -cE "split syr2k" $OUT/syr2k-auto.txt
echo "after $((SECONDS - t0)) s"
