#!/usr/bin/env bash
# Session 38 call E (one H200): main d25977a (a split's merge enqueued ahead, behind its GPU kernel;
# the application's wait watching a split's near end awake) against issues 15 and 16's program
# targets: all 21 PolyBench programs at STANDARD and the launch-heavy ones and those the issues name
# at LARGE: native GPU, Hetero held to the GPU, Hetero default (the runner keeps the history and
# kept binaries between its processes, as a user's machine would). As session 35's call D.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 270 python3 bench/run --build $new --sizes STANDARD --benchmarks all \
  --repeat 2 --inner-repeat 4 --no-check --no-trace --configs native-gpu,hetero-gpu,hetero --out /tmp/bench > $OUT/bench.log 2>&1
echo "bench STANDARD rc=$? after $((SECONDS - t0)) s"; tail -3 $OUT/bench.log
cp /tmp/bench/results.md $OUT/standard-results.md 2>/dev/null; cp /tmp/bench/runs.csv $OUT/standard-runs.csv 2>/dev/null
sed -n '/against the native GPU/,/geomean/p' $OUT/standard-results.md 2>/dev/null
timeout $(( 560 - (SECONDS - t0) )) python3 bench/run --build $new --sizes LARGE \
  --benchmarks gemm,3mm,2mm,convolution-2d,convolution-3d,jacobi-1d,jacobi-2d,adi,lu,doitgen,gesummv,syr2k,syrk \
  --repeat 2 --inner-repeat 3 --no-check --no-trace --configs native-gpu,hetero-gpu,hetero --out /tmp/large > $OUT/large.log 2>&1
echo "bench LARGE rc=$? after $((SECONDS - t0)) s"; tail -3 $OUT/large.log
cp /tmp/large/results.md $OUT/large-results.md 2>/dev/null; cp /tmp/large/runs.csv $OUT/large-runs.csv 2>/dev/null
sed -n '/against the native GPU/,/geomean/p' $OUT/large-results.md 2>/dev/null
