#!/usr/bin/env bash
# Session 33 call E (one H200): clFinish after launches without events made as the backend queue's
# own finish (this tree) against be2c543 (.base: a marker enqueued, flushed and waited for).
# (1) programs whose timed phase is a few launches and a finish, kernel_ms, 6 interleaved rounds:
# native, held and default of each build; (2) the launch_cost table with both libraries;
# (3) tests on NVIDIA + PoCL: the observability label, the ICD suites on one and two slots, splits.
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
  for ps in "convolution-2d STANDARD" "gemm STANDARD" "3mm STANDARD" "atax STANDARD" "convolution-3d STANDARD"; do
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
h /tmp/hetero-new HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-convolution-2d --size STANDARD --repeat 10 --no-check --platform Hetero --device all 2>&1 | grep -E "Marker|Finish|WaitFor|NDRange" | cut -c1-150
timeout 100 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 3 --patterns plain,event > $OUT/launch_cost.md 2>&1; tail -6 $OUT/launch_cost.md
echo "launch_cost after $((SECONDS - t0)) s"
(cd $new && timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -R "^observability\.(backend-calls|counters)" --output-on-failure > $OUT/ctest-obs.txt 2>&1
 echo "observability rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-obs.txt | head -20)
(cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "^icd\.(one-slot|two-slots|two-slots-piped|one-slot-piped|split-1|split-piped)$|call pipe" --output-on-failure > $OUT/ctest-icd.txt 2>&1
 echo "icd rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-icd.txt | head -20)
