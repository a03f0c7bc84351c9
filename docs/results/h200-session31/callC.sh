#!/usr/bin/env bash
# Session 31 call C (one H200), main at 980c29b: what auto mode decides for syr2k LARGE process by
# process when the bench runner's sequence repeats (session 30's runner: a third process split at
# 2 % and took 7.94 ms against 5.2 whole). Three fresh histories, four processes each of
# --repeat 3 (the runner's --inner-repeat 3), HETERO_LOG=debug; the history file after each process.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
for seq in 1 2 3; do
  rm -rf /tmp/xdg-$seq
  for r in 1 2 3 4; do
    echo "=== sequence $seq process $r"
    h XDG_CACHE_HOME=/tmp/xdg-$seq HETERO_LOG=debug $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check 2>&1 | grep -E "kernel_ms|history|split syr2k" | cut -c1-260
    echo "--- history:"; grep -E "syr2k|^size|^kernel" /tmp/xdg-$seq/hetero/split-history-*.txt | cut -c1-200
    echo "native $($new/bench/polybench-syr2k --size LARGE --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  done
done > $OUT/syr2k-sequences.txt 2>&1
grep -E "===|kernel_ms|native" $OUT/syr2k-sequences.txt | grep -oE "===.*|kernel_ms=[0-9.]+|native.*" | paste - - - 
echo "after $((SECONDS - t0)) s"
