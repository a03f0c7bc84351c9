#!/usr/bin/env bash
# Session 31 call B (one H200): threads that wait for a launch pipe sleep after 30 us of spinning
# (this tree) against 980c29b (.base: they spin, then yield, until the pipe is done). Call A found
# NVIDIA's launch calls made by one other thread slower natively too (call_clock's ring, +25 % on
# convolution-3d): whether the waiting thread's spinning is what slows the pipe's. Launch-bound
# programs at STANDARD, held and default, six interleaved rounds, --repeat 10 each.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for r in 1 2 3 4 5 6; do
  for p in convolution-3d adi jacobi-1d convolution-2d; do
    P="$new/bench/polybench-$p --size STANDARD --repeat 10 --no-check"
    line="round $r $p native $($P --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      line="$line | $b held $(h /tmp/hetero-$b HETERO_DEVICES=gpu $P --platform Hetero --device all 2>&1 | ms)"
      line="$line default $(h /tmp/hetero-$b $P --platform Hetero --device all 2>&1 | ms)"
    done
    echo "$line"
  done
done
} > $OUT/launch-bound.txt 2>&1
cat $OUT/launch-bound.txt; echo "after $((SECONDS - t0)) s"
