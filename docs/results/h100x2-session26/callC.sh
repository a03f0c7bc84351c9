#!/usr/bin/env bash
# Session 26 call C (two H100s): why the first counted split of gemm LARGE after the CPU's trials
# lost (2.86 ms against 2.18 whole, call B): full debug logs and traces of gemm, GPUs + PoCL in auto
# mode, with the CPU joining (g2c) and without (g2c-off).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete HETERO_DEVICES=nvidia:0,nvidia:1,pocl:0"
for c in on off; do
  $H HETERO_SPLIT_NWAY_CPU=$c HETERO_LOG=debug HETERO_TRACE=$OUT/trace-gemm-$c.json timeout 60 $new/bench/polybench-gemm \
    --platform Hetero --device gpu --no-check --repeat 10 --size LARGE > $OUT/log-gemm-$c.txt 2>&1
  grep -E "split gemm N-way:|history|kernel_ms" $OUT/log-gemm-$c.txt | sed "s/^/$c: /"
done
