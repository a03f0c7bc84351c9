#!/usr/bin/env bash
# Session 16 call C (two GPUs + PoCL): the N-way parts' kernels on the device clock (3mm, 2mm, gemm XL, every launch split).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j32 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
G2P=nvidia:0,nvidia:1,pocl:0
for p in 3mm 2mm gemm; do
  rm -rf ~/.cache/hetero
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p /"
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=nvidia:0,nvidia:1 HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl-gpus.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p gpus-only /"
done
echo "done after $(( $(date +%s)-t0 )) s"
