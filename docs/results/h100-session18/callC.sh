#!/usr/bin/env bash
# Session 18 call C (four GPUs): whole host writes copied into the host copy and sent in pieces by
# several threads (new = tree) against 02bd807 (old, .base): bench/tools/bandwidth ordinary mode
# through Hetero (blocking clEnqueueWrite/ReadBuffer from application memory) against native; PolyBench
# total_ms (transfers included) on one GPU + CPU in default mode and on four GPUs + CPU split; tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j24 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j24 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
nproc
for r in 1 2; do
  timeout 60 $new/bench/bandwidth --platform NVIDIA --modes ordinary,pinned --sizes 1,4,16,64,256 --reps 5 | sed "s/^/round=$r native /"
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=nvidia:0,pocl:0 HETERO_SPLIT=off \
      timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 1,4,16,64,256 --reps 5 | sed "s/^/round=$r $v-1gc /"
  done
done 2>&1 | tee $OUT/bandwidth.txt
echo "bandwidth after $(( $(date +%s)-t0 )) s"
timeout 140 ctest --test-dir $t -j8 --timeout 130 -R 'host_copy|icd.two-slots$|icd.nway-on|icd.nway-gpus-only|parallel|observability' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old1gc,new1gc \
SLOT_COST_EXTRA="old1gc=XDG_CACHE_HOME=/tmp/cache-old $OLD HETERO_DEVICES=nvidia:0,pocl:0;new1gc=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=nvidia:0,pocl:0" \
  timeout 150 etc/gpu-slot-cost.sh gemm,2mm,syrk,atax,gesummv,mvt,bicg 2 EXTRALARGE 2>&1 | tail -10
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_1gc_total.txt
echo "1gc after $(( $(date +%s)-t0 )) s"
left=$(( 560 - ($(date +%s)-t0) ))
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old4gc,new4gc \
SLOT_COST_EXTRA="old4gc=$OLD HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always;new4gc=HETERO_DEVICES=gpu,cpu HETERO_SPLIT=always" \
  timeout $left etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_4gc_total.txt
echo "done after $(( $(date +%s)-t0 )) s"
