#!/usr/bin/env bash
# Session 18 call B (four GPUs): N-way results read back from a guessed span (new = tree) against 5f26201
# (old, .base), every launch split at EXTRALARGE over 4 GPUs + CPU and 2 GPUs + CPU, one H100 as two
# slots at LARGE; traces; memcpy into pinned memory against NVIDIA's writes (scratch tool); ctest.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j24 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j24 2>&1 | grep -E "error:") &
gcc -O2 -pthread -o /tmp/memcpy_pinned .scratch/memcpy_pinned.c -lOpenCL
wait
echo "built after $(( $(date +%s)-t0 )) s"
for mb in 20 64; do timeout 60 /tmp/memcpy_pinned $mb; done 2>&1 | tee $OUT/memcpy_pinned.txt
timeout 150 ctest --test-dir $t -j8 --timeout 140 -R 'nway|auto-nway|icd.three-slots$|bench.(gemm|2mm|3mm).three-slots' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old4gc,new4gc,old2gc,new2gc \
SLOT_COST_EXTRA="old4gc=$OLD HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;new4gc=HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;old2gc=$OLD HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0 HETERO_SPLIT=always;new2gc=HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0 HETERO_SPLIT=always" \
  timeout 200 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_always.txt
echo "xl after $(( $(date +%s)-t0 )) s"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old1x2,new1x2 \
SLOT_COST_EXTRA="old1x2=$OLD HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always;new1x2=HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always" \
  timeout 100 etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 2 LARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_one_gpu_two_slots.txt
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for p in gemm 2mm; do
  $H HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl-4gc.json timeout 40 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p 4gc traced /"
done
echo "done after $(( $(date +%s)-t0 )) s"
