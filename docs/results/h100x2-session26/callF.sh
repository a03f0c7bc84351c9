#!/usr/bin/env bash
# Session 26 call F (two H100s where lent, else one H100 with a context per slot): main's head after
# the trial bound (310e00f) and TSan list: the N-way tests with the CPU, then gemm and syrk LARGE
# with the GPUs + PoCL in auto mode (the CPU's trials, then its plan), native beside them.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -ge 2 ]; then g="nvidia:0,nvidia:1"; own=""; else g="nvidia:0,nvidia:0"; own="HETERO_SLOT_CONTEXTS=own"; fi
new=/tmp/hetero-new
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=$g,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
(cd $new && timeout 150 ctest -j6 --timeout 140 -R 'icd.nway-(cpu|unalike|own|on)$|engine.auto-nway|bench.(gemm|syr2k).three-slots' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -12
common="HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete $own"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,g2,g2c
export SLOT_COST_EXTRA="g2=$common HETERO_DEVICES=$g;g2c=$common HETERO_DEVICES=$g,pocl:0"
timeout $(( 280 - (SECONDS - t0) )) etc/gpu-slot-cost.sh gemm,syrk,syr2k 1 LARGE > $OUT/round1.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A5 "min kernel_ms" $OUT/round1.txt
