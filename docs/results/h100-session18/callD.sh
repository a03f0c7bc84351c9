#!/usr/bin/env bash
# Session 18 call D (one H100): large blocking reads through pinned pieces (new = tree) against
# ea36440 (old, .base: staged writes, direct reads); bench/tools/bandwidth.py; PolyBench EXTRALARGE
# total time over one H100 + PoCL in default mode; tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j6 2>&1 | grep -E "error:") &
wait
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:") &
echo "built after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu,cpu HETERO_SPLIT=off \
      timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,16,64,256 --reps 5 | sed "s/^/round=$r $v-1gc /"
  done
done 2>&1 | tee $OUT/bandwidth_old_new.txt
echo "bandwidth old/new after $(( $(date +%s)-t0 )) s"
wait
(cd bench/tools && timeout 200 python3 bandwidth.py --build $new --sizes 1,4,16,64,256 --reps 5) > $OUT/bandwidth.md 2>$OUT/bandwidth.err; cat $OUT/bandwidth.md
echo "bandwidth.py after $(( $(date +%s)-t0 )) s"
timeout 120 ctest --test-dir $t -j8 --timeout 110 -R 'host_copy|icd.two-slots$|icd.discrete|observability|parallel|bench.(gemm|atax|gesummv).hetero$' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
left=$(( 560 - ($(date +%s)-t0) ))
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old,new \
SLOT_COST_EXTRA="old=XDG_CACHE_HOME=/tmp/cache-old $OLD;new=XDG_CACHE_HOME=/tmp/cache-new" \
  timeout $left etc/gpu-slot-cost.sh gemm,2mm,syrk,atax,gesummv,mvt,bicg,covariance 2 EXTRALARGE 2>&1 | tail -11
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_1gc_total.txt
echo "done after $(( $(date +%s)-t0 )) s"
