#!/usr/bin/env bash
# Session 21 call J (one H100): which of this session's launch-path changes moved jacobi-1d and
# convolution-3d (call I): main 9c2bd99 ("prev", .base), this session's HEAD ("new"), HEAD without
# the asleep waiters ("nosleep", .nosleep) and HEAD with a pipe from the first run of two
# ("run1": HETERO_TEST_PIPE_AFTER_RUN=1), held and default, interleaved, 4 rounds, STANDARD.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new prev=/tmp/hetero-prev nosleep=/tmp/hetero-nosleep
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
(cmake -S .nosleep -B $nosleep -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $nosleep -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
P="OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1"; N="OCL_ICD_FILENAMES=$nosleep/icd/libHeteroOpenCL.so.1"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,prev-held,held,nosleep-held,run1-held,prev-default,default,nosleep-default,run1-default \
SLOT_COST_EXTRA="prev-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev $P;prev-default=XDG_CACHE_HOME=/tmp/cache-prev $P;nosleep-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-nosleep $N;nosleep-default=XDG_CACHE_HOME=/tmp/cache-nosleep $N;run1-held=HETERO_DEVICES=gpu HETERO_TEST_PIPE_AFTER_RUN=1;run1-default=HETERO_TEST_PIPE_AFTER_RUN=1" \
  timeout $(( 560 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh jacobi-1d,convolution-3d,adi,3mm 4 STANDARD 2>&1 | tail -8
echo "slot cost after $(( $(date +%s)-t0 )) s"
