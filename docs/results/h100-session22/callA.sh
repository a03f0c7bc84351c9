#!/usr/bin/env bash
# Session 22 call A (one H100): what 3mm's first launch after its writes waits for with the CPU slot
# (call_clock's per-position medians of the program's launches and clFinish; debug log; the
# backend calls), and whether pinning each run to the same cores quiets launch-bound programs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
lib=$new/icd/libHeteroOpenCL.so.1
H="OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent"
CC="LD_PRELOAD=$new/bench/libcall_clock.so CALL_CLOCK_PERIOD=3 CALL_CLOCK_FINISH_PERIOD=2"
run3mm() {  # name, env...
  local name=$1; shift
  if [ "$name" = native ]; then
    o=$(env $CC "$@" $new/bench/polybench-3mm --platform NVIDIA --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  else
    o=$(env $H $CC "$@" $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  fi
  echo "$o" | grep -oE "kernel_ms=[0-9.]* total_ms=[0-9.]*" | sed "s/^/$name /"
  echo "$o" | grep -E "call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite)" | sed -E "s/ tenths_us=[^ ]*//; s/^/  $name /"
}
for r in 1 2 3; do
  echo "== round $r"
  run3mm native
  run3mm held HETERO_DEVICES=gpu
  run3mm default
  run3mm writes-direct HETERO_TEST_WRITES_DIRECT=1
  run3mm unpinned HETERO_PINNED_BUDGET=0
  run3mm split-off HETERO_SPLIT=off
done
echo "3mm after $((SECONDS - t0)) s"
for c in held default; do
  e=""; [ $c = held ] && e="HETERO_DEVICES=gpu"
  echo "== $c: backend calls, debug log"
  env $H $e HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1 | grep -vE "^polybench" | cut -c1-220 | head -40
  env $H $e HETERO_LOG=debug $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 2 --size STANDARD 2>&1 | cut -c1-220 | head -60
done
echo "diag after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero
for prefix in "" "taskset -c 2-9"; do
  echo "== prefix '$prefix'"
  SLOT_COST_PREFIX="$prefix" SLOT_COST_STAT=median SLOT_COST_BUILD=$new SLOT_COST_REPEAT=10 SLOT_COST_CONFIGS=native,held,default \
    timeout $(( 560 - (SECONDS - t0) )) etc/gpu-slot-cost.sh adi,convolution-2d,convolution-3d,jacobi-1d,3mm 4 STANDARD 2>&1 | tail -7
  cp $OUT/slot_cost.txt "$OUT/slot_cost-${prefix:+taskset}.txt" 2>/dev/null
done
echo "done after $((SECONDS - t0)) s"
