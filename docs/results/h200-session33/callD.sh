#!/usr/bin/env bash
# Session 33 call D (one H200): how auto mode learns syr2k over the bench runner's processes
# (--repeat 4 each, as --inner-repeat 4), main as in call A: four processes per size from a fresh
# history, HETERO_LOG=debug (the history's records and every split), kernel_ms per phase.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
for s in STANDARD LARGE; do
  rm -rf /tmp/xdg-$s
  for p in 1 2 3 4; do
    echo "== syr2k $s process $p"
    h XDG_CACHE_HOME=/tmp/xdg-$s HETERO_LOG=debug $new/bench/polybench-syr2k --size $s --repeat 4 --platform Hetero --device all --no-check 2>&1 |
      grep -E "history|kernel_ms|phase|split syr2k|probe|plan|building|variants" | cut -c1-230
  done
done > $OUT/learning.txt 2>&1
cat $OUT/learning.txt | head -120
echo "after $((SECONDS - t0)) s"
