#!/usr/bin/env bash
# Session 42 call I (one H200), scratch timers in submitSplit (not committed: the tree carried a
# patch printing, at exit, the microseconds between its steps for the process's first splits):
# where the first planned split of a process spends its 0.26-0.33 ms in the application's thread
# (call H: 0.085-0.105 ms for the second). syrk STANDARD, five processes on one fresh cache, --repeat 3.
# Steps: locks + backend objects | makeFresh | zero fills | snapshots (pool buffers, copies) |
# status word | abortable kernel + flush | completion events | hand to the split thread.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
c=/tmp/cache-i; rm -rf $c; mkdir -p $c/pocl
for proc in 1 2 3 4 5; do
  echo "=== process $proc"
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent \
      XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl timeout 120 \
      $b/bench/polybench-syrk --size STANDARD --repeat 3 --no-check --each-run --platform Hetero --device all 2>&1 | grep -E "XXSPLIT|polybench run="
done 2>&1 | tee $OUT/steps.txt
