#!/usr/bin/env bash
# Session 18 call A (four GPUs): (1) context_enqueue: what starting work on 2/4 contexts costs from one
# thread vs a thread per context; (2) ctest N-way subset on NVIDIA (84977ac + mirror w/o CPU, not run on
# GPU before); (3) host writes mirrored without a CPU slot: new (main) vs 725d69f (old, .base), every launch
# split at EXTRALARGE; (4) one H100 as two slots (issue 17's overhead table), LARGE, every launch split;
# (5) default mode LARGE 4g old vs new with what is left.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j24 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j24 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
nvidia-smi -L
for d in 0,1,2,3 0,1 0,0,0,0 0,0; do timeout 60 $new/bench/context_enqueue --devices $d --rounds 40 2>&1 | sed "s/^/devices=$d /"; done | tee $OUT/context_enqueue.txt
timeout 60 $new/bench/context_enqueue --devices 0,1,2,3 --rounds 40 --bytes 67108864 2>&1 | sed "s/^/devices=0,1,2,3 64MiB /" | tee -a $OUT/context_enqueue.txt
echo "context_enqueue after $(( $(date +%s)-t0 )) s"
timeout 170 ctest --test-dir $t -j8 --timeout 160 -R 'nway|auto-nway|icd.three-slots$' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old4g,new4g,new4gc \
SLOT_COST_EXTRA="old4g=$OLD HETERO_DEVICES=nvidia HETERO_SPLIT=always;new4g=HETERO_DEVICES=nvidia HETERO_SPLIT=always;new4gc=HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always" \
  timeout 190 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_always.txt
echo "xl after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,one2 \
SLOT_COST_EXTRA="one2=HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always" \
  timeout 90 etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 1 LARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_one_gpu_two_slots.txt
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for p in gemm syr2k; do
  $H HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-large-one2.json timeout 30 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size LARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p one2 traced /"
done
left=$(( 570 - ($(date +%s)-t0) ))
echo "left $left s"
rm -rf ~/.cache/hetero /tmp/cache-*
[ $left -gt 30 ] && SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old4g,new4g \
SLOT_COST_EXTRA="old4g=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=nvidia;new4g=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=nvidia" \
  timeout $left etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 2 LARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_large_default.txt
echo "done after $(( $(date +%s)-t0 )) s"
