#!/usr/bin/env bash
# Session 17 call C (four GPUs + PoCL): the N-way tail without a host wait per source and every part's kernel enqueued first (new) against cacca58 (old): every launch split at EXTRALARGE over 2 and 4 GPUs + CPU; traces; backend call times; the N-way tests on NVIDIA.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j20 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j24 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for p in 2mm gemm; do
  rm -rf ~/.cache/hetero
  $H HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl-4gc.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p 4gc traced /"
done
$H HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always HETERO_COUNT_BACKEND_CALLS=on timeout 60 $new/bench/polybench-gemm --platform Hetero --device gpu --no-check --repeat 5 --size EXTRALARGE > $OUT/backend-calls-gemm-xl-4gc.txt 2>&1
grep -E "kernel_ms|clEnqueue|clSetKernelArg|clCreate|clWait|clFinish|clFlush" $OUT/backend-calls-gemm-xl-4gc.txt | sed 's/(NVIDIA CUDA, dispatch [^)]*)/(NV)/; s/(Portable Computing Language, dispatch [^)]*)/(PoCL)/' | head -40
echo "traces after $(( $(date +%s)-t0 )) s"
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old4gc,new4gc,old2gc,new2gc \
SLOT_COST_EXTRA="old4gc=$OLD HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;new4gc=HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;old2gc=$OLD HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0 HETERO_SPLIT=always;new2gc=HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0 HETERO_SPLIT=always" \
  timeout 200 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_always.txt
echo "XL after $(( $(date +%s)-t0 )) s"
timeout 150 ctest --test-dir $t -j8 --timeout 140 -R 'nway|auto-nway|icd.three-slots$|bench.(gemm|2mm|3mm).three-slots|merge' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
echo "done after $(( $(date +%s)-t0 )) s"
