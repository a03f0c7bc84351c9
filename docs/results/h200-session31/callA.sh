#!/usr/bin/env bash
# Session 31 call A (one H200), main at 980c29b. (1) Why convolution-3d held costs ~0.8 us a launch
# over native (session 30: NVIDIA's launch call takes 4.56 us made by the launch pipe's thread,
# native's whole launch 4.15): the CPU topology, then convolution-3d STANDARD in interleaved rounds:
# native, native through call_clock (NVIDIA's own launch call) plain and with its calls made by one
# other thread (CALL_CLOCK_ASYNC), held, held without the pipe, and native and held confined to two
# CPUs that are one core's SMT siblings or two different cores. (2) syr2k LARGE, five processes
# against one fresh history, HETERO_LOG=debug: what each process decides (session 30's runner saw a
# third process split and lose, 7.94 ms).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
{ lscpu; echo; lscpu -e; for c in 0 1 2 8; do echo "cpu$c siblings $(cat /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list)"; done; } > $OUT/topology.txt
grep -E "Thread|Core|Socket|NUMA node|Model name" $OUT/topology.txt | head; grep siblings $OUT/topology.txt
sib=$(cat /sys/devices/system/cpu/cpu2/topology/thread_siblings_list)
case $sib in *,*) pairS=$sib ;; *-*) pairS=${sib/-/,} ;; *) pairS=none ;; esac
pairD=2,6
echo "sibling pair: $pairS; different cores: $pairD"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
P="$new/bench/polybench-convolution-3d --size STANDARD --repeat 10 --no-check"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
clk() { grep -E "call_clock: clEnqueueNDRangeKernel" | grep -oE 'mean_us=[0-9.]+|median_us=[0-9.]+' | tr '\n' ' '; }
{
for r in 1 2 3 4; do
  echo "round $r native $($P --platform NVIDIA --device gpu 2>&1 | ms)"
  echo "round $r native-clock $(LD_PRELOAD=$new/bench/libcall_clock.so $P --platform NVIDIA --device gpu 2>&1 | tee /tmp/c1 | ms) $(clk < /tmp/c1)"
  echo "round $r native-async $(LD_PRELOAD=$new/bench/libcall_clock.so CALL_CLOCK_ASYNC=1 $P --platform NVIDIA --device gpu 2>&1 | tee /tmp/c2 | ms) $(clk < /tmp/c2)"
  echo "round $r held $(h HETERO_DEVICES=gpu $P --platform Hetero --device all 2>&1 | ms)"
  echo "round $r held-calls $(h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $P --platform Hetero --device all 2>&1 | tee /tmp/c3 | ms) $(grep -E 'NDRangeKernel by a launch pipe' /tmp/c3 | grep -oE '[0-9.]+ us each')"
  echo "round $r held-nopipe $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off $P --platform Hetero --device all 2>&1 | ms)"
  echo "round $r default $(h $P --platform Hetero --device all 2>&1 | ms)"
  if [ "$pairS" != none ]; then
    echo "round $r native-sib $(taskset -c $pairS $P --platform NVIDIA --device gpu 2>&1 | ms)"
    echo "round $r held-sib $(h HETERO_DEVICES=gpu taskset -c $pairS $P --platform Hetero --device all 2>&1 | ms)"
  fi
  echo "round $r native-diff $(taskset -c $pairD $P --platform NVIDIA --device gpu 2>&1 | ms)"
  echo "round $r held-diff $(h HETERO_DEVICES=gpu taskset -c $pairD $P --platform Hetero --device all 2>&1 | ms)"
  echo "round $r held-3cpu $(h HETERO_DEVICES=gpu taskset -c 2,6,10 $P --platform Hetero --device all 2>&1 | ms)"
done
} > $OUT/conv3d.txt 2>&1
cat $OUT/conv3d.txt; echo "conv3d after $((SECONDS - t0)) s"
rm -rf /tmp/xdg /tmp/nvcache /tmp/pocl-cache
for r in 1 2 3 4 5; do
  echo "=== process $r"
  h XDG_CACHE_HOME=/tmp/xdg CUDA_CACHE_PATH=/tmp/nvcache POCL_CACHE_DIR=/tmp/pocl-cache HETERO_LOG=debug $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check 2>&1 | grep -E "kernel_ms|history|split syr2k|plan|probe" | cut -c1-300
done > $OUT/syr2k-large-debug.txt 2>&1
grep -E "===|kernel_ms" $OUT/syr2k-large-debug.txt | grep -oE "===.*|kernel_ms=[0-9.]+"
echo "after $((SECONDS - t0)) s"
