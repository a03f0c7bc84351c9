#!/usr/bin/env bash
# Session 17 call E (four GPUs + PoCL): default mode at EXTRALARGE over two rounds (processes) with the history kept, as a user's second run finds it: native against 4 GPUs + CPU.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j40 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,4gc \
SLOT_COST_EXTRA="4gc=XDG_CACHE_HOME=/tmp/cache-4gc" \
  timeout 110 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 2 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_default_2rounds.txt
echo "done after $(( $(date +%s)-t0 )) s"
