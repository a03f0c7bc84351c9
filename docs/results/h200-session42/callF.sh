#!/usr/bin/env bash
# Session 42 call F (one H200): issue 15's table as it stands (main 5c8685b): the bench runner on all
# 21 PolyBench programs, native GPU, held to the GPU and default, three processes each (auto mode's
# history kept between a configuration's processes, as users run), at STANDARD (SIZE=STANDARD) or
# LARGE (SIZE=LARGE).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
size=${SIZE:-STANDARD}
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
HETERO_COMMIT=5c8685b timeout 540 python3 bench/run --build $b --sizes $size --benchmarks all --repeat 3 \
  --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 60 --out $OUT/runner > $OUT/runner.txt 2>&1
echo "runner rc=$? after $((SECONDS - t0)) s"
tar -czf $OUT/runner-$size.tar.gz -C $OUT runner && rm -rf $OUT/runner
tail -32 $OUT/runner.txt
