#!/usr/bin/env bash
# Session 26 call E (two H100s): measured shares for GPUs of different names (357594f): the N-way
# tests on both GPUs + PoCL (icd.nway-unalike: the two H100s counted as different devices, slot 1
# made 20 ms late), then one round of call A's table (callA.sh says what each column is) and
# gemm/syr2k with the H100s counted as different devices (unalike: shares by measured speed).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
g="nvidia:0,nvidia:1"
new=/tmp/hetero-new prev=/tmp/hetero-prev
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=$g,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
(cd $new && timeout 200 ctest -j6 --timeout 190 -E 'icd.nway-unified|three-slots-split|one-device|nway-cpu-split' \
   -R 'nway|auto-nway|bench.(gemm|syr2k|2mm|3mm|syrk|doitgen).three-slots' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed|FAILED" $OUT/ctest.txt | head -24
common="HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,prev,g2,g2c,g2-unalike
export SLOT_COST_EXTRA="prev=OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1 $common HETERO_DEVICES=$g,pocl:0;g2=$common HETERO_DEVICES=$g;g2c=$common HETERO_DEVICES=$g,pocl:0;g2-unalike=$common HETERO_DEVICES=$g HETERO_TEST_NWAY_UNALIKE=1"
timeout $(( 560 - (SECONDS - t0) )) etc/gpu-slot-cost.sh syr2k,syrk,gemm,2mm,3mm,doitgen 1 LARGE > $OUT/round1.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A9 "min kernel_ms" $OUT/round1.txt
