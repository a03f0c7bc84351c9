#!/usr/bin/env bash
# Session 21 call H (one H100): this session's launch path (waiters asleep, a pipe only for runs of
# eight) against main 9c2bd99 ("prev", .base, the session's start): tests on NVIDIA + PoCL, then all
# 21 PolyBench programs at STANDARD (native, held, default; prev held and default), interleaved,
# 2 rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
timeout 200 ctest --test-dir $new -j8 --timeout 180 -R 'icd.two-slots$|icd.one-slot-piped|icd.two-slots-piped|host_copy|call pipe|stress.(short-run|loop-piped|exit-after-nowait)|bench.(adi|gemm|3mm|jacobi-1d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,prev-held,held,prev-default,default \
SLOT_COST_EXTRA="prev-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1;prev-default=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout $(( 575 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh 2mm,3mm,adi,atax,bicg,convolution-2d,convolution-3d,correlation,covariance,doitgen,fdtd-2d,gemm,gemver,gesummv,gramschmidt,jacobi-1d,jacobi-2d,lu,mvt,syr2k,syrk 2 STANDARD 2>&1 | tail -30
echo "slot cost after $(( $(date +%s)-t0 )) s"
