#!/usr/bin/env bash
# Session 21 call M (one H100): the launch-bound programs where the session's pipe changes could
# show, with many rounds: HEAD ("new"), HEAD with the waiters yielding as before ("nosleep", .nosleep)
# and main 9c2bd99 ("prev", .base); held and default; 8 rounds, interleaved.
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
for job in convolution-3d,adi:STANDARD convolution-3d:LARGE; do size=${job#*:}
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,prev-held,held,prev-default,default,nosleep-default \
SLOT_COST_EXTRA="prev-held=HETERO_DEVICES=gpu XDG_CACHE_HOME=/tmp/cache-prev $P;prev-default=XDG_CACHE_HOME=/tmp/cache-prev $P;nosleep-default=XDG_CACHE_HOME=/tmp/cache-nosleep $N" \
  OUT=$OUT/$size timeout $(( 280 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh ${job%:*} 8 $size 2>&1 | tail -5
done
echo "slot cost after $(( $(date +%s)-t0 )) s"
