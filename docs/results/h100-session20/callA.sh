#!/usr/bin/env bash
# Session 20 call A (one H100): where adi's per-launch cost through Hetero goes on NVIDIA.
# bench/tools/call_clock (LD_PRELOAD) times the program's own calls: native, native with one of
# Hetero's habits each, Hetero held/default with backend-call counting; enqueue_threads; strace -c.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 --target HeteroOpenCL polybench-adi polybench-fdtd-2d polybench-convolution-3d enqueue_threads call_clock 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"; which perf strace ltrace 2>&1 | head -3
CC=$new/bench/libcall_clock.so
H="OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
run() { # name size repeat program env...
  local name=$1 size=$2 rep=$3 prog=$4; shift 4
  local plat=NVIDIA; case "$name" in held*|default*) plat=Hetero;; esac
  env "$@" LD_PRELOAD=$CC timeout 40 $new/bench/polybench-$prog --platform $plat --device gpu --no-check --repeat $rep --size $size > /tmp/o.txt 2>&1
  echo "== $prog $size $name $(grep -o 'kernel_ms=[0-9.]*' /tmp/o.txt | tr '\n' ' ')"
  grep -E "call_clock: clEnqueueNDRange|call_clock: clSetKernelArg|call_clock: clFlush|backend calls: .*clEnqueueNDRange|backend calls: .*clSetKernelArg|backend calls: .*clFlush|from [0-9]+ thread" /tmp/o.txt | sed 's/^/   /'
}
for r in 1 2; do
  echo "### round $r adi LARGE after $(( $(date +%s)-t0 )) s"
  run native LARGE 1 adi
  run native-flush16 LARGE 1 adi CALL_CLOCK_FLUSH_EVERY=16
  run native-pinned512 LARGE 1 adi CALL_CLOCK_PINNED_MB=512
  run native-queues2 LARGE 1 adi CALL_CLOCK_EXTRA_QUEUES=2
  run native-profiling LARGE 1 adi CALL_CLOCK_PROFILING=1
  run native-waitprev LARGE 1 adi CALL_CLOCK_WAIT_PREVIOUS=1
  run held LARGE 1 adi $H HETERO_DEVICES=gpu
  run held-counted LARGE 1 adi $H HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on
  run held-flush0 LARGE 1 adi $H HETERO_DEVICES=gpu HETERO_TEST_FLUSH_EVERY=0
  run held-flush256 LARGE 1 adi $H HETERO_DEVICES=gpu HETERO_TEST_FLUSH_EVERY=256
  run default-counted LARGE 1 adi $H HETERO_COUNT_BACKEND_CALLS=on
done
echo "### adi STANDARD after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  run native STANDARD 3 adi
  run held STANDARD 3 adi $H HETERO_DEVICES=gpu
  run held-counted STANDARD 3 adi $H HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on
done
echo "### fdtd-2d LARGE, convolution-3d STANDARD after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  for p in fdtd-2d:LARGE convolution-3d:STANDARD; do
    run native ${p#*:} 3 ${p%:*}
    run held ${p#*:} 3 ${p%:*} $H HETERO_DEVICES=gpu
    run held-counted ${p#*:} 3 ${p%:*} $H HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on
    run default ${p#*:} 3 ${p%:*} $H
  done
done
echo "### enqueue_threads after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  for i in none main other other-queue threads copies; do timeout 30 $new/bench/enqueue_threads --platform NVIDIA --interlude $i; done
done
if which strace >/dev/null 2>&1; then
  echo "### strace -c adi STANDARD after $(( $(date +%s)-t0 )) s"
  strace -f -c -o $OUT/strace-native.txt $new/bench/polybench-adi --platform NVIDIA --device gpu --no-check --size STANDARD | grep -o "kernel_ms=[0-9.]*"
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu strace -f -c -o $OUT/strace-held.txt $new/bench/polybench-adi --platform Hetero --device gpu --no-check --size STANDARD | grep -o "kernel_ms=[0-9.]*"
  head -25 $OUT/strace-native.txt; head -25 $OUT/strace-held.txt
fi
echo "done after $(( $(date +%s)-t0 )) s"
