#!/usr/bin/env bash
# Session 34 call I (one H200): held to the GPU, convolution-2d's and gemm's launch took the
# application 2-17 us longer than native's (call H). In one process: the program's own calls
# (call_clock, LD_PRELOAD) and Hetero's calls into NVIDIA inside them (HETERO_COUNT_BACKEND_CALLS).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
a="--size STANDARD --repeat 20 --no-check"
for r in 1 2; do
  for p in convolution-2d gemm; do
    echo "== round $r $p held"
    h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | grep -E "kernel_ms|call_clock: (clEnqueueNDRange|clFinish|clSetKernelArg)|backend calls: .*NVIDIA" | grep -vE "GetDeviceInfo|GetPlatformInfo|GetDeviceIDs|GetProgram|GetKernel|CreateProgram|BuildProgram|CreateContext|CreateKernel|CreateCommandQueue|ReleaseContext|ReleaseProgram|ReleaseKernel" | cut -c1-200
  done
done > $OUT/calls.txt 2>&1
cat $OUT/calls.txt; echo "after $((SECONDS - t0)) s"
