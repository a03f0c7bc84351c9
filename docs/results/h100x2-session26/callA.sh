#!/usr/bin/env bash
# Session 26 call A (two H100s where lent, else one H100 with a context per slot): the CPU joins
# N-way splits (issue 17, HETERO_SPLIT_NWAY_CPU).
# (1) builds: this tree with its tests (three slots: both GPUs + PoCL), prev = d6ec25f (.base);
# (2) the N-way tests on NVIDIA + PoCL (icd.nway-cpu, icd.nway-cpu-split, engine.auto-nway, ...);
# (3) LARGE, in-process --repeat 10 (auto mode learns within the process; no history on disk):
#     native (one GPU), prev (d6ec25f, GPUs + PoCL, auto), g2 (GPUs alone, auto), g2c (GPUs + PoCL,
#     auto: the CPU joins where planned), g2c-off (the same, HETERO_SPLIT_NWAY_CPU=off),
#     a2c / a2c-off (every launch split, CPU on / off); (4) a debug log of syr2k's plans; (5) round 2.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
nvidia-smi -L
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -ge 2 ]; then g="nvidia:0,nvidia:1"; own=""; else g="nvidia:0,nvidia:0"; own="HETERO_SLOT_CONTEXTS=own"; fi
new=/tmp/hetero-new prev=/tmp/hetero-prev
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=$g,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
common="HETERO_HISTORY_CACHE=off HETERO_MEMORY=discrete $own"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,prev,g2,g2c,g2c-off,a2c,a2c-off
export SLOT_COST_EXTRA="prev=OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1 $common HETERO_DEVICES=$g,pocl:0;g2=$common HETERO_DEVICES=$g;g2c=$common HETERO_DEVICES=$g,pocl:0;g2c-off=$common HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT_NWAY_CPU=off;a2c=$common HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT=always;a2c-off=$common HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT=always HETERO_SPLIT_NWAY_CPU=off"
progs=syr2k,syrk,gemm,2mm,3mm,doitgen
timeout 220 etc/gpu-slot-cost.sh $progs 1 LARGE > $OUT/round1.txt 2>&1
cp $OUT/slot_cost.txt $OUT/slot_cost_round1.txt
echo "round 1 after $((SECONDS - t0)) s"; grep -A9 "min kernel_ms" $OUT/round1.txt
(cd $new && timeout 200 ctest -j8 --timeout 190 -E 'icd.nway-unified|three-slots-split|one-device' \
   -R 'nway|auto-nway|icd.three-slots$|bench.(gemm|syr2k|2mm|3mm|syrk|doitgen).three-slots|corpus-three-slots' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -40
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $common"
for c in auto always; do
  $H HETERO_DEVICES=$g,pocl:0 HETERO_SPLIT=$c HETERO_LOG=debug timeout 60 $new/bench/polybench-syr2k --platform Hetero \
    --device gpu --no-check --repeat 10 --size LARGE > $OUT/log.tmp 2>&1
  grep -E "kernel_ms|N-way|CPU|history" $OUT/log.tmp | sed "s/^/$c: /" >> $OUT/log-syr2k.txt; rm -f $OUT/log.tmp
done
grep -E "split syr2k|kernel_ms" $OUT/log-syr2k.txt | tail -12
left=$(( 560 - (SECONDS - t0) ))
echo "left $left s"
[ $left -gt 60 ] && timeout $left etc/gpu-slot-cost.sh $progs 1 LARGE > $OUT/round2.txt 2>&1
echo "done after $((SECONDS - t0)) s"; grep -A9 "min kernel_ms" $OUT/round2.txt
