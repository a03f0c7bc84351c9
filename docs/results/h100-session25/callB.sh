#!/usr/bin/env bash
# Session 25 call B (one H100): GPU slots of one device share a backend context and split over the primary's objects, nothing copied (issue 17).
# (1) builds: this tree with its tests (three slots nvidia:0,nvidia:0,pocl:0), prev = d879360 (.base);
# (2) one H100 as two slots, LARGE, every launch split: native, held (Hetero, the GPU alone),
#     one2c (nvidia:0,nvidia:0,pocl:0: the same, PoCL idle),
#     prev2 (d879360), own2 (HETERO_SLOT_CONTEXTS=own: the old path in the new build), one2 (shared);
# (3) the N-way and three-slot tests on NVIDIA; (4) traces of gemm LARGE own2/one2; (5) a second round.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
nvidia-smi -L
two="HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=always"
export SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,held,prev2,own2,one2,one2c
export SLOT_COST_EXTRA="prev2=OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1 $two;own2=$two HETERO_SLOT_CONTEXTS=own;one2=$two;one2c=HETERO_DEVICES=nvidia:0,nvidia:0,pocl:0 HETERO_SPLIT=always"
timeout 200 etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 1 LARGE > $OUT/round1.txt 2>&1
cp $OUT/slot_cost.txt $OUT/slot_cost_round1.txt
echo "round 1 after $((SECONDS - t0)) s"; tail -9 $OUT/round1.txt
(cd $new && timeout 320 ctest -j8 --timeout 300 -E 'icd.nway-unified' -R 'nway|auto-nway|icd.three-slots$|bench.*three-slots|corpus-three-slots|auto-one-device' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $two"
for c in own one; do
  extra=""; [ $c = own ] && extra=HETERO_SLOT_CONTEXTS=own
  $H $extra HETERO_LOG=info HETERO_TRACE=$OUT/trace-gemm-large-$c.json timeout 40 $new/bench/polybench-gemm --platform Hetero \
    --device gpu --no-check --repeat 3 --size LARGE > $OUT/log-gemm-$c.tmp 2>&1; cat $OUT/log-gemm-$c.tmp >> $OUT/log-gemm.txt
  grep -oE "kernel_ms=[0-9.]*|split gemm N-way.*" $OUT/log-gemm-$c.tmp | head -4 | sed "s/^/$c: /"; rm $OUT/log-gemm-$c.tmp
done
left=$(( 580 - (SECONDS - t0) ))
echo "left $left s"
[ $left -gt 40 ] && timeout $left etc/gpu-slot-cost.sh gemm,syr2k,2mm,syrk,3mm 1 LARGE > $OUT/round2.txt 2>&1
echo "done after $((SECONDS - t0)) s"; tail -9 $OUT/round2.txt
