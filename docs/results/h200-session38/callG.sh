#!/usr/bin/env bash
# Session 38 call G (one H200): main after the revert, call F's syr2k STANDARD measures without
# HETERO_LOG (call F logged auto mode's processes at info), four more interleaved rounds: native,
# the sides of the static split at 0.07 (the real ideal's share) and 0.05, static 0.05, auto mode.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check"
{
for round in 1 2 3 4; do
  [ $((SECONDS - t0)) -gt 190 ] && break
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
  for s in 0.05 0.07; do
    echo "gpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=gpu $p --platform Hetero --device all 2>&1 | ms)"
    echo "cpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | ms)"
  done
  echo "static-0.05 $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 $p --platform Hetero --device all 2>&1 | ms)"
  rm -rf /tmp/xdg
  for proc in 1 2 3 4 5; do echo "auto-p$proc $(h XDG_CACHE_HOME=/tmp/xdg $p --platform Hetero --device all 2>&1 | ms)"; done
done
} > $OUT/standard.txt 2>&1
cat $OUT/standard.txt | tr '\n' ';'
echo; echo "after $((SECONDS - t0)) s"
