#!/usr/bin/env bash
# Session 38 call H (one H200), fb3e2d1 (merge ahead's failure path mended: it no longer waits for
# its own commands inside the split's CPU side): syr2k STANDARD static 0.05 against native, three
# rounds; then on NVIDIA + PoCL the split engine's fixed-cost tests (the new
# engine.fixed-cost-merge-ahead-fails among them), engine.completion, engine.auto-*, engine.corpus-12
# and icd.split-1, within the session's device time left.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check"
for round in 1 2 3; do
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  echo "static-0.05 $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 HETERO_LOG=info $p --platform Hetero --device all 2>&1 | grep -oE 'kernel_ms=[0-9.]+|merges_ahead=[0-9]+' | tr '\n' ' ')"
done > $OUT/syr2k.txt 2>&1
cat $OUT/syr2k.txt
(cd $b && timeout $(( 165 - (SECONDS - t0) )) ctest -j8 -R "^engine\.fixed-cost|^engine\.completion|^engine\.auto|^engine\.corpus-12$|^icd\.split-1$" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
