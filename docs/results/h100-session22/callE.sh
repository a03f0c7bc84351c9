#!/usr/bin/env bash
# Session 22 call E (one H100): the bench runner over all 21 PolyBench programs at STANDARD with
# main's code (c0c2d7a: the launch path of dc32375): native GPU, Hetero held to the GPU, Hetero
# default (GPU + PoCL, adaptive), 3 processes each (median), results checked, no trace.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf ~/.cache/hetero
timeout $(( 575 - (SECONDS - t0) )) python3 bench/run --build $new --sizes STANDARD --benchmarks all --repeat 3 \
  --configs native-gpu,hetero-gpu,hetero --no-trace --out $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"
tail -3 $OUT/bench.log
wc -l $OUT/bench/runs.csv
