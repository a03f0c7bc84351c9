#!/usr/bin/env bash
# Session 29 call I (one GPU): the two unified bridge tests on the slots unified tests use
# (HETERO_TEST_UNIFIED_SLOTS, two PoCL slots: call H ran them on NVIDIA + PoCL forced unified, where
# results are wrong by design), and the two tests call H's time limit cut (engine.unified-adaptive,
# icd.nway-cpu-split).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
cd $new && timeout $(( 270 - (SECONDS - t0) )) ctest -j4 -R "^(observability\.backend-calls\.unified-.*|engine\.unified-adaptive|icd\.nway-cpu-split)$" --output-on-failure > $OUT/ctest.txt 2>&1
echo "rc=$? after $((SECONDS - t0)) s"; grep -E "Test +#|tests passed" $OUT/ctest.txt
