#!/usr/bin/env bash
# Session 15 call F (one H100 + PoCL): the final main (async-copy rule, CTS merge) through the ICD split suites and the N-way tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
t=/tmp/hetero-tests
cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
left=$(( 560 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $t -j6 --timeout 300 -R '^icd\.(one-slot|split-1|split-2|two-slots|nway-on|nway-failed-mirror)$|bench.(gemm|syr2k|2mm).hetero$' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -30
