#!/usr/bin/env bash
# Session 16 call A (two GPUs + PoCL), main 3710b0c: where 2mm/3mm's N-way launches lose time (traces, logs); default vs always at LARGE.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j32 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
nvidia-smi topo -m 2>&1 | head -6
G2P=nvidia:0,nvidia:1,pocl:0
for p in 2mm 3mm gemm; do
  rm -rf ~/.cache/hetero
  echo "== $p XL always-split"
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl.json HETERO_LOG=info timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -E "N-way|kernel_ms|bring|brought" | cut -c1-220
  $new/bench/polybench-$p --platform NVIDIA --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "(kernel|total)_ms=[0-9.]*" | tr '\n' ' '; echo
done
echo "traces after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,default2p,always2p \
SLOT_COST_EXTRA="default2p=XDG_CACHE_HOME=/tmp/cache-d HETERO_DEVICES=$G2P;always2p=XDG_CACHE_HOME=/tmp/cache-a HETERO_DEVICES=$G2P HETERO_SPLIT=always" \
  timeout 300 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k,doitgen 2 LARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_large.txt
echo "done after $(( $(date +%s)-t0 )) s"
