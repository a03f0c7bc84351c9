#!/usr/bin/env bash
# Session 42 call C (one H200, native): callC/launch_after.c's modes, three rounds of 60 runs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gcc -O2 -Ibench/tools -o /tmp/la docs/results/h200-session42/callC/launch_after.c -lOpenCL || exit 1
timeout 400 /tmp/la 60 2>&1 | tee $OUT/launch_after.txt
