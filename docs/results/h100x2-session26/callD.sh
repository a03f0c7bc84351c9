#!/usr/bin/env bash
# Session 26 call D (two H100s): after the guess's block is reused on a miss (no pinned allocation):
# gemm and syrk logs in auto mode with the CPU joining, then two rounds of call A's table
# (callA.sh says what each column is).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
g="nvidia:0,nvidia:1"
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
common="HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete"
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $common"
for p in gemm syrk; do
  $H HETERO_DEVICES=$g,pocl:0 HETERO_LOG=debug timeout 60 $new/bench/polybench-$p --platform Hetero \
    --device gpu --no-check --repeat 10 --size LARGE > $OUT/log.tmp 2>&1
  grep -E "kernel_ms|N-way|CPU|history" $OUT/log.tmp | sed "s/^/$p: /" >> $OUT/log-auto.txt; rm -f $OUT/log.tmp
done
grep -E "split .* N-way:|trial|kernel_ms|missed" $OUT/log-auto.txt | head -30
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,prev,g2,g2c,g2c-off
export SLOT_COST_EXTRA="prev=OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1 $common HETERO_DEVICES=$g,pocl:0;g2=$common HETERO_DEVICES=$g;g2c=$common HETERO_DEVICES=$g,pocl:0;g2c-off=$common HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT_NWAY_CPU=off"
timeout $(( 540 - (SECONDS - t0) )) etc/gpu-slot-cost.sh syr2k,syrk,gemm,2mm,3mm,doitgen 2 LARGE > $OUT/rounds.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A9 "min kernel_ms" $OUT/rounds.txt
