#!/usr/bin/env bash
# Session 31 call F (one H200), this tree: (1) syr2k STANDARD's real ideal on the H200, at shares
# finer than the runner's (0.04-0.09): each side of the static split run alone
# (HETERO_TEST_SPLIT_ONLY=gpu|cpu, results wrong on purpose), native beside, three interleaved
# rounds; then auto mode from its third process on (two warm-up processes against a fresh history,
# then three). (2) Tests on NVIDIA + PoCL: engine.auto-*, the split-history unit tests, icd.split-1.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
P="$new/bench/polybench-syr2k --size STANDARD --repeat 3 --no-check"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for r in 1 2 3; do
  line="round $r native $($P --platform NVIDIA --device gpu 2>&1 | ms)"
  for s in 0.04 0.05 0.06 0.07 0.08 0.09; do
    line="$line | $s gpu $(h HETERO_CPU_SHARE=$s HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_ONLY=gpu $P --platform Hetero --device all 2>&1 | ms)"
    line="$line cpu $(h HETERO_CPU_SHARE=$s HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_ONLY=cpu $P --platform Hetero --device all 2>&1 | ms)"
    case $s in 0.05|0.07) line="$line static $(h HETERO_CPU_SHARE=$s HETERO_SPLIT_BUILD=eager $P --platform Hetero --device all 2>&1 | ms)" ;; esac
  done
  echo "$line"
done
rm -rf /tmp/xdg
for r in 1 2 3 4 5; do
  echo "auto process $r $(env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg $P --platform Hetero --device all 2>&1 | ms) native $($P --platform NVIDIA --device gpu 2>&1 | ms)"
done
} > $OUT/real-ideal.txt 2>&1
cat $OUT/real-ideal.txt; echo "ideal after $((SECONDS - t0)) s"
(cd $new && timeout 200 ctest -j8 -R "^engine\.auto|split history|^icd\.split-1$" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
