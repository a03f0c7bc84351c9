#!/usr/bin/env bash
# Session 20 call E (one H100): pipes only for launches in a burst (within 100 us of the previous
# candidate; working tree "new") against main 875d9fa ("prev"): the programs with few launches that
# call D saw slower (convolution-2d, gemm, 3mm) and the launch-bound ones, 3 rounds; then icd.two-slots.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,prev-held,held,prev-default,default \
SLOT_COST_EXTRA="prev-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1;prev-default=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout 200 etc/gpu-slot-cost.sh convolution-2d,gemm,3mm,atax,gesummv,adi,convolution-3d,jacobi-2d 3 STANDARD 2>&1 | tail -12
echo "slot cost after $(( $(date +%s)-t0 )) s"
timeout $(( 560 - ($(date +%s)-t0) )) ctest --test-dir $new -j8 --timeout 200 -R 'icd.two-slots$|icd.one-slot-piped|bench.(adi|gemm|convolution-2d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
