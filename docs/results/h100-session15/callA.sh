#!/usr/bin/env bash
# Session 15 call A (four GPUs): N-way with host writes mirrored and span-bounded results (new) against d8112b2 (old); EXTRALARGE on two GPUs; LARGE on one GPU as two slots.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
nvidia-smi -L
new=/tmp/hetero-new base=/tmp/hetero-base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j32 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j32 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero
G2=nvidia:0,nvidia:1 G4=nvidia:0,nvidia:1,nvidia:2,nvidia:3
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2,new2,old4,new4 \
SLOT_COST_EXTRA="old2=OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=$G2 HETERO_SPLIT=always;new2=HETERO_DEVICES=$G2 HETERO_SPLIT=always;old4=OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=$G4 HETERO_SPLIT=always;new4=HETERO_DEVICES=$G4 HETERO_SPLIT=always" \
  timeout 260 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 1 EXTRALARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_xl.txt
echo "XL done after $(( $(date +%s)-t0 )) s"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,held,old-two,new-two \
SLOT_COST_EXTRA="held=HETERO_DEVICES=nvidia:0;old-two=OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always;new-two=HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always" \
  timeout 170 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 LARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_large_one.txt
echo "one-GPU done after $(( $(date +%s)-t0 )) s"
for b in new base; do
  lib=/tmp/hetero-$b/icd/libHeteroOpenCL.so.1
  env OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G4 HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-gemm-xl-4-$b.json HETERO_LOG=info timeout 40 $new/bench/polybench-gemm --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -E "kernel_ms|N-way" | cut -c1-220
done
for p in gemm 2mm syr2k; do
  env OCL_ICD_FILENAMES=/tmp/hetero-new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G4 HETERO_SPLIT=always timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --repeat 2 --size LARGE 2>&1 | tail -2 | cut -c1-200
done
echo "done after $(( $(date +%s)-t0 )) s"
