#!/usr/bin/env bash
# Session 21 call K (one H100): traces of 3mm STANDARD held and default (where default's extra
# 30-40 us go); per-launch cost (launch_cost.py) of this session's HEAD against 9c2bd99 ("prev");
# the launch-bound programs at LARGE (native, held, default), 2 rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
H="OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/cache-trace"
rm -rf /tmp/cache-trace ~/.cache/hetero
for r in 1 2; do
  for c in held default; do
    e=""; [ $c = held ] && e="HETERO_DEVICES=gpu"
    env $H $e HETERO_TRACE=$OUT/trace-3mm-$c-$r.json HETERO_LOG=info $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 3 --size STANDARD 2>&1 | grep -E "kernel_ms|history" | cut -c1-200
    env $H $e $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 3 --size STANDARD 2>&1 | grep -o "kernel_ms=[0-9.]*" | sed "s/^/untraced $c /"
  done
  $new/bench/polybench-3mm --platform NVIDIA --device gpu --no-check --repeat 3 --size STANDARD 2>&1 | grep -o "kernel_ms=[0-9.]*" | sed "s/^/native /"
done
echo "traces after $(( $(date +%s)-t0 )) s"
timeout 200 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 5 2>&1 | tail -16
echo "launch_cost after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=2 SLOT_COST_CONFIGS=native,held,default \
  timeout $(( 560 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh adi,fdtd-2d,jacobi-2d,convolution-3d,jacobi-1d 2 LARGE 2>&1 | tail -8
echo "slot cost after $(( $(date +%s)-t0 )) s"
