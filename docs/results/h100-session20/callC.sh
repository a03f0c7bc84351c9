#!/usr/bin/env bash
# Session 20 call C (one H100): launches made by a pipe thread (devices/call_pipe.hpp, working tree
# "new") against main 875d9fa ("prev", .base): per-launch cost, the launch-bound PolyBench programs,
# then the tests on NVIDIA + PoCL (the NVIDIA slot pipes its launches by default).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
timeout 150 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 5 2>&1 | tail -20
echo "launch cost after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,held-prev,held,default-prev,default,default-nopipe \
SLOT_COST_EXTRA="held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-new;held-prev=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1;default=XDG_CACHE_HOME=/tmp/cache-new;default-prev=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1;default-nopipe=HETERO_SUBMIT_THREAD=off XDG_CACHE_HOME=/tmp/cache-new" \
  timeout 200 etc/gpu-slot-cost.sh adi,convolution-3d,jacobi-1d,fdtd-2d,jacobi-2d,lu,convolution-2d 3 STANDARD 2>&1 | tail -12
cp ${OUT}/slot_cost.txt $OUT/slot_cost_standard.txt 2>/dev/null
echo "slot cost after $(( $(date +%s)-t0 )) s"
left=$(( 560 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $new -j8 --timeout 150 -R 'icd.two-slots$|icd.one-slot|icd.split-1|icd.split-piped|icd.two-slots-piped|host_copy|observability|engine.completion|unified.forced|bench.(gemm|atax|gesummv|adi).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
