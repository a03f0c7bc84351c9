#!/usr/bin/env bash
# Session 32 call D (one H200), this tree: what the host copies cost a program that never splits.
# Call C: atax default spent 26 ms mapping (pinning) its 64 MB matrix's host copy and 9 ms freeing
# it, which held to the GPU does not. Programs that launch their kernels once (atax, 2mm, gemm
# STANDARD): native / held / default / default with every write straight to its slot
# (HETERO_TEST_WRITES_DIRECT=1, the measuring knob), process wall times, five rounds after a
# warm-up; then the backends' map and release calls of atax default and direct.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-once "$@"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
{
for p in atax 2mm gemm; do
  P="$new/bench/polybench-$p --size STANDARD --repeat 1 --no-check"
  for round in 0 1 2 3 4 5; do
    for c in native held default direct; do
      t=$(date +%s%N)
      case $c in
        native) k=$($P --platform NVIDIA --device gpu 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
        held) k=$(h HETERO_DEVICES=gpu $P --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
        default) k=$(h $P --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
        direct) k=$(h HETERO_TEST_WRITES_DIRECT=1 $P --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
      esac
      echo "$p round $round $c $k wall_ms=$(ms $t)"
    done
  done
done
for c in default direct; do
  d=0; [ $c = direct ] && d=1
  echo "== atax $c backend calls"
  h HETERO_TEST_WRITES_DIRECT=$d HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-atax --size STANDARD --repeat 1 --no-check --platform Hetero --device all 2>&1 | grep -E "Map|Unmap|ReleaseMem|CreateBuffer|WriteBuffer|ReleaseContext|kernel_ms" | cut -c1-160
done
} > $OUT/host-copies.txt 2>&1
grep -v "round 0" $OUT/host-copies.txt; echo "all after $((SECONDS - t0)) s"
