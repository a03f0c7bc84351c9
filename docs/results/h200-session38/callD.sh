#!/usr/bin/env bash
# Session 38 call D (one H200): the tests on NVIDIA + PoCL for d25977a (merge ahead; waits that
# watch a split's near end awake): observability, the icd one-slot, two-slots, one-slot-piped and
# split-1 configurations, engine (the new engine.fixed-cost-merge-ahead among them), platform_unit.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
(cd $new && timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(one-slot|two-slots|one-slot-piped|split-1)$|^engine\.|^platform_unit|tail" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
grep -E "Test +#" $OUT/ctest.txt | wc -l
