#!/usr/bin/env bash
# Session 21 call I (one H100): this session's launch path (waiters asleep, a pipe only for runs of
# eight, timed launches on their own queue) against main 9c2bd99 ("prev", .base): tests on NVIDIA +
# PoCL, then the programs whose default differed from held at STANDARD, interleaved, 3 rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
timeout 150 ctest --test-dir $new -j8 --timeout 140 -R 'engine.auto|icd.two-slots$|icd.split-1|stress.(short-run|loop-piped)|split history|bench.(3mm|gemm|convolution-3d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,prev-held,held,prev-default,default \
SLOT_COST_EXTRA="prev-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1;prev-default=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout $(( 570 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh 3mm,gemm,2mm,convolution-2d,convolution-3d,doitgen,gesummv,jacobi-1d,adi 3 STANDARD 2>&1 | tail -14
echo "slot cost after $(( $(date +%s)-t0 )) s"
