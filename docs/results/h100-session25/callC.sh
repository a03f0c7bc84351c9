#!/usr/bin/env bash
# Session 25 call C (one H100): main as committed (a7bc53c: one device's slots split over the
# primary's objects; the gate opener and split threads' end shared) checked on NVIDIA:
# (1) the N-way, three-slot and pair tests (three slots nvidia:0,nvidia:0,pocl:0; two nvidia:0,pocl:0);
# (2) one round of the one-GPU overhead table (LARGE, every launch split) and of the default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
nvidia-smi -L
two="HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,held,own2,one2,one2c,default3
export SLOT_COST_EXTRA="own2=$two HETERO_SLOT_CONTEXTS=own;one2=$two;one2c=HETERO_DEVICES=nvidia:0,nvidia:0,pocl:0 HETERO_SPLIT=always;default3=XDG_CACHE_HOME=/tmp/xdg-default3 HETERO_DEVICES=nvidia:0,nvidia:0,pocl:0"
timeout 150 etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 1 LARGE > $OUT/round1.txt 2>&1
echo "round 1 after $((SECONDS - t0)) s"; grep -A8 "min kernel_ms" $OUT/round1.txt
(cd $new && timeout $(( 560 - (SECONDS - t0) )) ctest -j8 --timeout 300 -E 'icd.nway-unified|three-slots-split' \
   -R 'nway|three-slots|auto-one-device|icd.split-give-up|icd.split-1$|fixed-cost' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
