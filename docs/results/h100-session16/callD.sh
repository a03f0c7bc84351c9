#!/usr/bin/env bash
# Session 16 call D (two GPUs + PoCL): the final tree (N-way cost model + whole-row parts) against 3710b0c: always-split XL, default LARGE, one GPU as two slots; N-way tests on real GPUs; a trace.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j10 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j12 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
G2P=nvidia:0,nvidia:1,pocl:0
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero
env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-3mm-xl.json timeout 60 $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2p,new2p \
SLOT_COST_EXTRA="old2p=$OLD HETERO_DEVICES=$G2P HETERO_SPLIT=always;new2p=HETERO_DEVICES=$G2P HETERO_SPLIT=always" \
  timeout 150 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 1 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl.txt
echo "XL after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-default,new-default \
SLOT_COST_EXTRA="old-default=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=$G2P;new-default=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=$G2P" \
  timeout 150 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k,doitgen,gesummv,atax 2 LARGE 2>&1 | tail -11
cp $OUT/slot_cost.txt $OUT/slot_cost_large_default.txt
echo "default LARGE after $(( $(date +%s)-t0 )) s"
timeout 200 ctest --test-dir $t -j8 --timeout 150 -R 'three-slots|nway|auto' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
left=$(( 580 - ($(date +%s)-t0) ))
echo "one GPU as two slots with $left s left"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-two,new-two \
SLOT_COST_EXTRA="old-two=$OLD HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always;new-two=HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always" \
  timeout $left etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 1 LARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_one_gpu.txt
echo "done after $(( $(date +%s)-t0 )) s"
