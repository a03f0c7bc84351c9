#!/usr/bin/env bash
# Session 42 call H (one H200): what syrk's launches do in default mode once auto mode has learned
# (call G: processes 3-4 at 5.5-6.6 ms against 4.78 whole). syrk STANDARD, five processes in a row on
# one fresh cache directory, --repeat 3, HETERO_LOG=debug (decisions, history, splits).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
c=/tmp/cache-h; rm -rf $c; mkdir -p $c/pocl
for proc in 1 2 3 4 5; do
  echo "=== process $proc"
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent \
      XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=debug timeout 120 \
      $b/bench/polybench-syrk --size STANDARD --repeat 3 --no-check --each-run --platform Hetero --device all 2>&1 |
      grep -vE "pocl|kept binar|transform|cache" | cut -c1-300 | head -60
done > $OUT/syrk-debug.txt 2>&1
grep -E "===|polybench run=|history|split" $OUT/syrk-debug.txt | cut -c1-220 | tail -60
