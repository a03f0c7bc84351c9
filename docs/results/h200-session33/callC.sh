#!/usr/bin/env bash
# Session 33 call C (one H200): the launch pipe's ring refilled in batches (this tree) against
# be2c543 (.base: the pushing thread took one free record at a time, the pipe's thread read the
# pushed count at every launch). (1) launch_cost, 5 interleaved rounds, both libraries; (2) the
# launch-heavy programs, kernel_ms, 6 interleaved rounds: native, held and default of each build;
# (3) the pipe's tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
timeout 150 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 5 --patterns plain,event,profiling,all-args > $OUT/launch_cost.md 2>&1; tail -12 $OUT/launch_cost.md
echo "launch_cost after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5 6; do
  for ps in "convolution-3d STANDARD" "adi STANDARD" "jacobi-1d LARGE" "convolution-2d STANDARD"; do
    set -- $ps; p=$1 s=$2
    a="--size $s --repeat 10 --no-check"
    line="round $round $p $s native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      line+=" held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
    for b in prev new; do
      line+=" default-$b $(h /tmp/hetero-$b $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
    echo "$line"
  done
done
} > $OUT/rounds.txt 2>&1
cat $OUT/rounds.txt; echo "rounds after $((SECONDS - t0)) s"
(cd $new && timeout $(( 570 - (SECONDS - t0) )) ctest -j8 -R "piped|call pipe|launch runs|^icd\.two-slots$|^icd\.split-1$|stress" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
