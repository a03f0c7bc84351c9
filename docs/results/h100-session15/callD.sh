#!/usr/bin/env bash
# Session 15 call D (two GPUs + PoCL), the final tree: always-split EXTRALARGE and the first split, d8112b2 (old) against new; default (auto) mode over the 21 programs, kernel and total time, 2 rounds.
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
for b in new base; do
  rm -rf ~/.cache/hetero
  echo "== first splits, $b"
  env OCL_ICD_FILENAMES=/tmp/hetero-$b/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_LOG=info timeout 40 $new/bench/polybench-gemm --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -E "N-way|kernel_ms" | cut -c1-200
done
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2p,new2p \
SLOT_COST_EXTRA="old2p=$OLD HETERO_DEVICES=$G2P HETERO_SPLIT=always;new2p=HETERO_DEVICES=$G2P HETERO_SPLIT=always" \
  timeout 120 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 1 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl.txt
rm -rf ~/.cache/hetero /tmp/cache-old /tmp/cache-new
left=$(( 570 - ($(date +%s)-t0) ))
echo "default mode with $left s left"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-default,new-default \
SLOT_COST_EXTRA="old-default=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=$G2P;new-default=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=$G2P" \
  timeout $left etc/gpu-slot-cost.sh 2mm,3mm,adi,atax,bicg,convolution-2d,convolution-3d,doitgen,fdtd-2d,gemm,gemver,gesummv,jacobi-1d,jacobi-2d,lu,mvt,syr2k,syrk 2 STANDARD 2>&1 | tail -24
cp $OUT/slot_cost.txt $OUT/slot_cost_default.txt
echo "done after $(( $(date +%s)-t0 )) s"
