#!/usr/bin/env bash
# Session 33 call F (one H200): convolution-2d STANDARD held to the GPU takes 1.08-1.12x native
# for its one launch and finish per phase (calls A, E), the default ~1.0x. NVIDIA's own calls in
# each: natively (bench/tools/call_clock.c, LD_PRELOAD), through Hetero held and default
# (HETERO_COUNT_BACKEND_CALLS=on), main as in call A. Three processes each, interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
a="--size STANDARD --repeat 10 --no-check"
for r in 1 2 3; do
  echo "== round $r native"
  LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-convolution-2d $a --platform NVIDIA --device gpu 2>&1 | grep -E "kernel_ms|call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite|clCreateBuffer|clSetKernelArg)" | cut -c1-170
  for cfg in held default; do
    e=""; [ $cfg = held ] && e="HETERO_DEVICES=gpu"
    echo "== round $r $cfg"
    h $e HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-convolution-2d $a --platform Hetero --device all 2>&1 | grep -E "kernel_ms|NVIDIA" | grep -vE "GetDeviceInfo|GetPlatformInfo|GetDeviceIDs|GetProgram|GetKernel|CreateProgram|BuildProgram|CreateContext|CreateKernel" | cut -c1-150
  done
done > $OUT/calls.txt 2>&1
cat $OUT/calls.txt | head -100
echo "after $((SECONDS - t0)) s"
