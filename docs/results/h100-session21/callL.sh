#!/usr/bin/env bash
# Session 21 call L (one H100): the session's final launch path (HEAD) on NVIDIA + PoCL: tests, then
# per-launch cost (launch_cost.py) against main 9c2bd99 ("prev", .base) and against HEAD without
# the asleep waiters ("nosleep", .nosleep), interleaved round by round, 5 rounds each, twice.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev nosleep=/tmp/hetero-nosleep
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j2 --target HeteroOpenCL 2>&1 | grep -E "error:") &
(cmake -S .nosleep -B $nosleep -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $nosleep -j2 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  timeout 100 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 5 2>&1 | grep -E "^\|" > $OUT/lc-prev-$r.md; cat $OUT/lc-prev-$r.md
  timeout 100 python3 bench/tools/launch_cost.py --build $new --baseline $nosleep --rounds 5 2>&1 | grep -E "^\|" > $OUT/lc-nosleep-$r.md; cat $OUT/lc-nosleep-$r.md
done
echo "launch_cost after $(( $(date +%s)-t0 )) s"
timeout $(( 560 - ($(date +%s)-t0) )) ctest --test-dir $new -j8 --timeout 150 -R 'engine.auto|icd.two-slots$|icd.one-slot-piped|icd.two-slots-piped|icd.split-1|host_copy|call pipe|stress.(short-run|loop-piped|exit-after-nowait)|bench.(adi|3mm|gemm|convolution-3d|jacobi-1d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
