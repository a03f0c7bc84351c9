#!/usr/bin/env bash
# Session 21 call N (one H100): the session's final launch path (session 20's pipe, made after a run
# of eight) on NVIDIA + PoCL: tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
timeout $(( 200 - ($(date +%s)-t0) )) ctest --test-dir $new -j8 --timeout 120 -R 'engine.auto|icd.two-slots$|icd.one-slot-piped|icd.two-slots-piped|host_copy|call pipe|launch runs|stress.(short-run|exit-after-nowait)|bench.(adi|3mm|convolution-3d|jacobi-1d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
