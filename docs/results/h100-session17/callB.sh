#!/usr/bin/env bash
# Session 17 call B (four GPUs + PoCL): traces of N-way launches over 4 GPUs (+ CPU, so host writes are mirrored), and every launch split at EXTRALARGE over 2 and 4 GPUs with the CPU slot.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j32 2>&1 | grep -E "error:")
echo "built after $(( $(date +%s)-t0 )) s"
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for p in 2mm gemm 3mm; do
  for cfg in "4gc:HETERO_DEVICES=gpu,cpu" "2gc:HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0"; do
    rm -rf ~/.cache/hetero
    $H ${cfg#*:} HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl-${cfg%%:*}.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p ${cfg%%:*} traced /"
  done
done
echo "traces after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,2gc,4gc,4g \
SLOT_COST_EXTRA="2gc=HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0 HETERO_SPLIT=always;4gc=HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;4g=HETERO_DEVICES=nvidia HETERO_SPLIT=always" \
  timeout 200 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 1 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_always.txt
echo "done after $(( $(date +%s)-t0 )) s"
