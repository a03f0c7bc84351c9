#!/usr/bin/env bash
# Session 31 call H (one H200), this tree: what the variants' build costs each process that splits
# (call E's trace: the first launch of a planned-split process took 52.6 ms, the variants' build
# its tail). syr2k STANDARD, three processes against one fresh history, then two more with the
# backends' call counts (clBuildProgram per backend), and `--repeat 1` so kernel_ms is the first launch.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
P="$new/bench/polybench-syr2k --size STANDARD --no-check"
rm -rf /tmp/xdg
{
for r in 1 2 3; do echo "process $r $(h XDG_CACHE_HOME=/tmp/xdg $P --repeat 3 --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"; done
for r in 4 5; do
  echo "== process $r, first launch only"
  h XDG_CACHE_HOME=/tmp/xdg HETERO_COUNT_BACKEND_CALLS=on $P --repeat 1 --platform Hetero --device all 2>&1 | grep -E "kernel_ms|clBuildProgram|clCompileProgram|clLinkProgram|CreateProgramWith"
  echo "native $($P --repeat 1 --platform NVIDIA --device gpu 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  echo "held $(h HETERO_DEVICES=gpu $P --repeat 1 --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
done
} > $OUT/build-cost.txt 2>&1
cut -c1-220 $OUT/build-cost.txt; echo "after $((SECONDS - t0)) s"
