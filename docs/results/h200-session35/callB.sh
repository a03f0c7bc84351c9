#!/usr/bin/env bash
# Session 35 call B (one H200): convolution-2d's one launch held to the GPU takes 1.13-1.17x native,
# the default (GPU + CPU) 0.99-1.00x (call A, 40 processes). Where the difference is: in one
# process, the program's own calls (call_clock, LD_PRELOAD), Hetero's calls into each backend
# (HETERO_COUNT_BACKEND_CALLS) and the split decisions (HETERO_LOG=debug); native likewise.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
a="--size STANDARD --repeat 20 --no-check"
keep='kernel_ms|call_clock: (clEnqueueNDRange|clFinish|clSetKernelArg|clEnqueueWrite)|backend calls: |history|split|decid'
drop='GetDeviceInfo|GetPlatformInfo|GetDeviceIDs|GetProgram|GetKernel|CreateProgram|BuildProgram|CreateContext|CreateKernel|CreateCommandQueue|ReleaseContext|ReleaseProgram|ReleaseKernel'
for r in 1 2 3; do
  for p in convolution-2d gemm; do
    echo "== round $r $p native"
    env CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | grep -E "$keep" | grep -vE "$drop" | cut -c1-220
    for c in held default; do
      echo "== round $r $p $c"
      d=; [ $c = held ] && d=HETERO_DEVICES=gpu
      h $d HETERO_LOG=debug HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | grep -E "$keep" | grep -vE "$drop" | cut -c1-220
    done
  done
done > $OUT/calls.txt 2>&1
echo "after $((SECONDS - t0)) s"
