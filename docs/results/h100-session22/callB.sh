#!/usr/bin/env bash
# Session 22 call B (one H100): call A's 3mm comparison again with everything written to $OUT (call A
# lost it to the tail), and NVIDIA's own launch call inside Hetero per configuration
# (HETERO_COUNT_BACKEND_CALLS): call A had it at 29 us held and 55 us default.
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
    o=$(env $H $CC HETERO_COUNT_BACKEND_CALLS=on "$@" $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  fi
  echo "$o" | grep -oE "kernel_ms=[0-9.]* total_ms=[0-9.]*" | sed "s/^/$name /"
  echo "$o" | grep -E "call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite)|backend calls: [0-9]+ (clEnqueueNDRangeKernel|clEnqueueWriteBuffer|clWaitForEvents|clFlush|clFinish) \(NVIDIA" |
    sed -E "s/ tenths_us=[^ ]*//; s/ \(NVIDIA CUDA, dispatch [0-9a-fx]*\)//; s/^/  $name /"
}
for r in 1 2 3; do
  echo "== round $r"
  run3mm native
  run3mm held HETERO_DEVICES=gpu
  run3mm default
  run3mm writes-direct HETERO_TEST_WRITES_DIRECT=1
  run3mm unpinned HETERO_PINNED_BUDGET=0
  run3mm no-pipe HETERO_SUBMIT_THREAD=off
  run3mm two-nvidia HETERO_DEVICES=nvidia:0,nvidia:0 HETERO_SPLIT=off
done > $OUT/3mm.txt 2>&1
echo "3mm after $((SECONDS - t0)) s"
cat $OUT/3mm.txt | grep -v "^== " | awk '{print $1, $2, $3, $4, $5, $6, $7}' | sort | head -150
