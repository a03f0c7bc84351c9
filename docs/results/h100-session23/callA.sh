#!/usr/bin/env bash
# Session 23 call A (one H100): issue 16's real ideal for all 21 PolyBench programs at STANDARD:
# each device alone, Hetero's default (its CPU share and bytes moved from the exit log), and each
# side of the static splits at CPU shares 0.02-0.2 run alone (the real ideal); one process each,
# unchecked (the split sides compute part of the result on purpose; the default's results were
# checked in session 22), no trace.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "built after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf ~/.cache/hetero
timeout $(( 580 - (SECONDS - t0) )) python3 bench/run --build $new --sizes STANDARD --benchmarks all --repeat 1 \
  --configs native-gpu,native-cpu,hetero,gpu-part-0.0,gpu-part-0.02,gpu-part-0.05,gpu-part-0.1,gpu-part-0.2,cpu-part-0.02,cpu-part-0.05,cpu-part-0.1,cpu-part-0.2 \
  --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/standard.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"
tail -25 $OUT/standard.log
