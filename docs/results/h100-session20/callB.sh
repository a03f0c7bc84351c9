#!/usr/bin/env bash
# Session 20 call B (one H100): does a launch-bound program keep NVIDIA's pace when one other thread
# makes its clSetKernelArg/launch calls (call_clock CALL_CLOCK_ASYNC=1)? Native, native-async, held.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 --target HeteroOpenCL polybench-adi polybench-fdtd-2d polybench-convolution-3d polybench-jacobi-1d call_clock 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
CC=$new/bench/libcall_clock.so
H="OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
run() { # name size repeat program env...
  local name=$1 size=$2 rep=$3 prog=$4; shift 4
  local plat=NVIDIA check=--no-check; case "$name" in held*|default*) plat=Hetero;; esac
  case "$name" in *async*) [ $r = 1 ] && check=;; esac
  env "$@" LD_PRELOAD=$CC timeout 40 $new/bench/polybench-$prog --platform $plat --device gpu $check --repeat $rep --size $size > /tmp/o.txt 2>&1
  echo "== $prog $size $name $(grep -o 'kernel_ms=[0-9.]*\|result=[A-Z]*' /tmp/o.txt | tr '\n' ' ')"
  grep -E "call_clock: clEnqueueNDRange|call_clock: clSetKernelArg" /tmp/o.txt | sed 's/ tenths_us=[0-9.,]*//; s/^/   /'
}
for r in 1 2 3; do
  echo "### round $r after $(( $(date +%s)-t0 )) s"
  for p in adi:LARGE:1 adi:STANDARD:3 fdtd-2d:LARGE:3 convolution-3d:STANDARD:3 jacobi-1d:LARGE:3; do
    IFS=: read prog size rep <<< "$p"
    run native $size $rep $prog
    run native-async $size $rep $prog CALL_CLOCK_ASYNC=1
    run held $size $rep $prog $H HETERO_DEVICES=gpu
  done
done
echo "done after $(( $(date +%s)-t0 )) s"
