#!/usr/bin/env bash
# Session 31 call I (one H200), review: does an adaptive probe whose chunks are cut to end in time
# (d5ec12b) give the right result? The tree carried here prints CAPPED when a chunk was cut (a
# scratch line, not committed). syr2k STANDARD and LARGE, three processes each against a fresh
# history, results checked against the sequential reference.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
{
for size in STANDARD LARGE; do
  rm -rf /tmp/xdg
  for r in 1 2 3; do
    echo "== $size process $r"
    h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=info $new/bench/polybench-syr2k --size $size --repeat 3 --platform Hetero --device all 2>&1 | grep -E "CAPPED|split syr2k|result="
  done
done
} > $OUT/checked.txt 2>&1
cut -c1-200 $OUT/checked.txt; echo "after $((SECONDS - t0)) s"
