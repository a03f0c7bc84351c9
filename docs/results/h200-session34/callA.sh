#!/usr/bin/env bash
# Session 34 call A (one H200): does a busy neighbour thread slow NVIDIA's launches?
# (1) native launch_cost with no neighbour, one spinning on pause, one looping on sched_yield;
# (2) the launch pipe's waiters asleep through most of a long wait (this tree) against a13cd3e
#     (.base: they spin), launch-heavy programs, kernel_ms, 6 interleaved rounds, and the pipe's
#     NVIDIA launch call time from the backend-call counts; (3) launch_cost.py new against prev;
# (4) the pipe tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5 6; do
  for n in none pause yield; do
    arg=; [ $n != none ] && arg="--neighbour $n"
    $new/bench/launch_cost --platform NVIDIA --launches 4096 --rounds 5 --patterns plain,all-args $arg | sed "s/^/round $round /"
  done
done
} > $OUT/neighbour.txt 2>&1
cat $OUT/neighbour.txt; echo "neighbour after $((SECONDS - t0)) s"
{
for round in 1 2 3 4 5 6; do
  for ps in "convolution-3d STANDARD" "jacobi-1d LARGE" "adi STANDARD" "convolution-2d STANDARD"; do
    set -- $ps; p=$1 s=$2
    a="--size $s --repeat 10 --no-check"
    line="round $round $p $s native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      line+=" held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
      line+=" default-$b $(h /tmp/hetero-$b $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
    echo "$line"
  done
done
} > $OUT/rounds.txt 2>&1
cat $OUT/rounds.txt; echo "rounds after $((SECONDS - t0)) s"
for b in prev new; do for r in 1 2; do
  echo "== convolution-3d STANDARD held-$b, backend calls ($r)"
  h /tmp/hetero-$b HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-convolution-3d --size STANDARD --repeat 10 --no-check --platform Hetero --device all 2>&1 | grep -E "kernel_ms|NDRange|clFlush" | cut -c1-170
done; done > $OUT/conv3d-calls.txt 2>&1
cat $OUT/conv3d-calls.txt
timeout 150 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 5 --patterns plain,event,all-args > $OUT/launch_cost.md 2>&1; tail -8 $OUT/launch_cost.md
echo "launch_cost after $((SECONDS - t0)) s"
(cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "^icd\.(one-slot-piped|two-slots-piped|split-piped|split-1)$|call pipe|launch runs" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
