#!/usr/bin/env bash
# Session 40 call H (one H200): call F again with the change as landed (the direct way sends a stale
# copy only once the launch is known to run whole: before, a send ahead of the split decision made
# icd.nway-own move whole buffers where it moves spans), against f5f1d54. As call F: a launch that
# submits at once (launchDirect) sends a stale copy from
# the pinned host copy itself instead of going the ordinary way (new) against f5f1d54 (base, sends
# only from the ordinary way). (1) The tests the change touches, on NVIDIA + PoCL; (2)
# bench/tools/bandwidth.py with the base as baseline, twice, 1-16 MiB.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 200 ctest --test-dir $b -j4 -R "^host_copy\.|^icd\.(two-slots|two-slots-piped|one-slot-discrete|split-1|split-2|nway-own)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
for round in 1 2; do
  timeout 100 python3 bench/tools/bandwidth.py --build $b --baseline /tmp/hetero-base --sizes 1,2,4,8,16 --reps 9 > $OUT/bandwidth-$round.md 2>&1
  echo "bandwidth $round rc=$? after $((SECONDS - t0)) s"
done
grep -v done $OUT/bandwidth-1.md $OUT/bandwidth-2.md | grep "^\S*| [0-9]" | cut -c1-400
echo "after $((SECONDS - t0)) s"
