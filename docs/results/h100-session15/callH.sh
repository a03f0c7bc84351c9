#!/usr/bin/env bash
# Session 15 call H (one H100 + PoCL): after the review mends, the N-way tests on nvidia:0,nvidia:0,pocl:0 and the ICD split suite.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
t=/tmp/hetero-tests
cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
left=$(( 400 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $t -j6 --timeout 300 -R '^icd\.(nway-on|nway-off|nway-failed-bring|nway-failed-mirror|split-1)$|bench.(gemm|2mm|syr2k|syrk|3mm|atax).three-slots|engine.auto-nway' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -30
