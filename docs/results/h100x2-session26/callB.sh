#!/usr/bin/env bash
# Session 26 call B (two H100s where lent): after recordTrialSplit (the CPU's trial share is no
# measurement of the split): the ICD suite split N-way over both GPUs and PoCL under chaos and the
# engine's corpus on them, then one round of call A's table (callA.sh says what each column is).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -ge 2 ]; then g="nvidia:0,nvidia:1"; own=""; else g="nvidia:0,nvidia:0"; own="HETERO_SLOT_CONTEXTS=own"; fi
new=/tmp/hetero-new prev=/tmp/hetero-prev
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=$g,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
(cd $new && timeout 330 ctest -j2 --timeout 320 -R 'icd.nway-cpu-split|engine.corpus-three-slots|engine.auto-nway' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed|FAILED" $OUT/ctest.txt | head -20
common="HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete $own"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,prev,g2,g2c,g2c-off
export SLOT_COST_EXTRA="prev=OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1 $common HETERO_DEVICES=$g,pocl:0;g2=$common HETERO_DEVICES=$g;g2c=$common HETERO_DEVICES=$g,pocl:0;g2c-off=$common HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT_NWAY_CPU=off"
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $common"
for p in gemm syrk; do
  $H HETERO_DEVICES=$g,pocl:0 HETERO_LOG=debug timeout 60 $new/bench/polybench-$p --platform Hetero \
    --device gpu --no-check --repeat 10 --size LARGE > $OUT/log.tmp 2>&1
  grep -E "kernel_ms|N-way|CPU|history" $OUT/log.tmp | grep -v "guessed span" | sed "s/^/$p: /" >> $OUT/log-auto.txt; rm -f $OUT/log.tmp
done
grep -E "split .* N-way:|trial|kernel_ms" $OUT/log-auto.txt | head -30
timeout $(( 570 - (SECONDS - t0) )) etc/gpu-slot-cost.sh syr2k,syrk,gemm,2mm,3mm,doitgen 1 LARGE > $OUT/round1.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A9 "min kernel_ms" $OUT/round1.txt
