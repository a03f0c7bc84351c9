#!/usr/bin/env bash
# Session 34 call H (one H200): where convolution-2d's and gemm's timed phase (one launch and a
# clFinish on fresh buffers) costs held more than native: the program's own calls timed by
# bench/tools/call_clock.c (LD_PRELOAD), the clFinish after the upload and the one after the launch
# apart (CALL_CLOCK_FINISH_PERIOD=2); native, held and default, three processes each, interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
a="--size STANDARD --repeat 20 --no-check"
for r in 1 2 3; do
  for p in convolution-2d gemm; do
    for c in native held default; do
      echo "== round $r $p $c"
      case $c in
        native) CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform NVIDIA --device gpu ;;
        held) h HETERO_DEVICES=gpu CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all ;;
        default) h CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all ;;
      esac 2>&1 | grep -E "kernel_ms|call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite|clSetKernelArg|clCreateBuffer|clReleaseMem)" | cut -c1-240
    done
  done
done > $OUT/calls.txt 2>&1
cat $OUT/calls.txt; echo "after $((SECONDS - t0)) s"
