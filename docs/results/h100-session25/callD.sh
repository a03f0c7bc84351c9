#!/usr/bin/env bash
# Session 25 call D (one H100): the review mend (6a5aed0: chaos::holdBack, countNwayLaunch, the new
# icd.one-device-split) on NVIDIA: the N-way and one-device tests with three slots
# nvidia:0,nvidia:0,pocl:0, then one round of the one-GPU overhead table.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
(cd $new && timeout 330 ctest -j8 --timeout 320 -E 'icd.nway-unified|three-slots-split' \
   -R 'nway|one-device|auto-one-device|icd.three-slots$|bench.(gemm|syr2k|2mm|3mm|syrk).three-slots' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
two="HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,one2 SLOT_COST_EXTRA="one2=$two"
timeout $(( 570 - (SECONDS - t0) )) etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 1 LARGE > $OUT/round1.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A8 "min kernel_ms" $OUT/round1.txt
