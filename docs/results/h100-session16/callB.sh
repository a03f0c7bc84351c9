#!/usr/bin/env bash
# Session 16 call B (two GPUs + PoCL): auto mode with the N-way cost model (new) against 3710b0c (old) at LARGE and STANDARD; where 3mm's halves lose time (per-kernel traces: held, N-way).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
G2P=nvidia:0,nvidia:1,pocl:0
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for cfg in "held:HETERO_DEVICES=nvidia:0" "nway:HETERO_DEVICES=$G2P HETERO_SPLIT=always"; do
  name=${cfg%%:*}; set=${cfg#*:}
  for p in 3mm 2mm; do
    rm -rf ~/.cache/hetero
    $H $set HETERO_TRACE=$OUT/trace-$p-xl-$name.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p $name /"
  done
done
echo "traces after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-default,new-default \
SLOT_COST_EXTRA="old-default=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=$G2P;new-default=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=$G2P" \
  timeout 200 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k,doitgen,gesummv,atax 3 LARGE 2>&1 | tail -11
cp $OUT/slot_cost.txt $OUT/slot_cost_large.txt
rm -rf ~/.cache/hetero /tmp/cache-*
left=$(( 570 - ($(date +%s)-t0) ))
echo "STANDARD default mode with $left s left"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-default,new-default \
SLOT_COST_EXTRA="old-default=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=$G2P;new-default=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=$G2P" \
  timeout $left etc/gpu-slot-cost.sh 2mm,3mm,adi,atax,bicg,convolution-2d,convolution-3d,doitgen,fdtd-2d,gemm,gemver,gesummv,jacobi-1d,jacobi-2d,lu,mvt,syr2k,syrk 2 STANDARD 2>&1 | tail -24
cp $OUT/slot_cost.txt $OUT/slot_cost_standard.txt
echo "done after $(( $(date +%s)-t0 )) s"
