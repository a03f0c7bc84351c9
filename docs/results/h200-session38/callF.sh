#!/usr/bin/env bash
# Session 38 call F (one H200): main after the revert (merge ahead alone, 9a21a10's split path):
# call C's syr2k STANDARD measures again (native, the static splits at 0.05 and 0.07 with their
# sides, auto mode from a fresh history), three interleaved rounds; then the split engine's
# fixed-cost and completion tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check"
{
for round in 1 2 3; do
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
  for s in 0.05 0.07; do
    echo "gpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=gpu $p --platform Hetero --device all 2>&1 | ms)"
    echo "cpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | ms)"
  done
  echo "static-0.05 $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 $p --platform Hetero --device all 2>&1 | ms)"
  rm -rf /tmp/xdg
  for proc in 1 2 3 4 5; do
    echo "auto-p$proc $(h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=info $p --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+|merges_ahead=[0-9]+|merges=[0-9]+' | tr '\n' ' ')"
  done
done
} > $OUT/standard.txt 2>&1
echo "standard after $((SECONDS - t0)) s"
cat $OUT/standard.txt
(cd $b && timeout $(( 280 - (SECONDS - t0) )) ctest -j8 -R "^engine\.fixed-cost|^engine\.completion" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
