#!/usr/bin/env bash
# Session 41 call D (one H200), as call C: whether default mode's extra time at the enqueue of a
# one-launch program is NVIDIA's (its own calls take longer) or Hetero's (more calls, or its own
# work). gemm and convolution-2d at STANDARD, --repeat 4, HETERO_COUNT_BACKEND_CALLS=on: held,
# default, HETERO_CPU_SHARE=0 and HETERO_SPLIT=off, three processes each; NVIDIA's calls listed.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_COUNT_BACKEND_CALLS=on "$@"; }
for round in 1 2 3; do
  for prog in gemm convolution-2d; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 4 --no-check --each-run --platform Hetero --device all"
    for cfg in held default share-0 split-off; do
      case $cfg in held) e=HETERO_DEVICES=gpu;; default) e=;; share-0) e=HETERO_CPU_SHARE=0;; split-off) e=HETERO_SPLIT=off;; esac
      echo "=== $prog $cfg round $round"
      h $e timeout 60 $p 2>&1 | grep -E "^polybench run|NVIDIA" | grep -vE "clGetDeviceInfo|clGetPlatformInfo|clGetProgram|clGetKernel|clBuildProgram|clCreateContext|clReleaseContext|clGetDeviceIDs|clCreateProgram" | sed -E 's/ \(NVIDIA CUDA, dispatch 0x[0-9a-f]+\)//; s/, from 1 thread//' | cut -c1-150
    done
  done
done > $OUT/calls.txt 2>&1
echo "after $((SECONDS - t0)) s"
grep -A40 "=== convolution-2d held round 1" $OUT/calls.txt | head -80
