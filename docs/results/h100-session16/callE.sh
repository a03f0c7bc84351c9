#!/usr/bin/env bash
# Session 16 call E (two GPUs + PoCL): where an N-way launch's start goes (thread phases on the trace); the three-slot tests call D left.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j20 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
G2P=nvidia:0,nvidia:1,pocl:0
for p in 3mm gemm; do
  rm -rf ~/.cache/hetero
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-xl.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p /"
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-$p-large.json timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --no-check --repeat 3 --size LARGE 2>&1 | grep -oE "kernel_ms=[0-9.]*" | sed "s/^/$p LARGE /"
done
echo "traces after $(( $(date +%s)-t0 )) s"
timeout 300 ctest --test-dir $t -j4 --timeout 280 -R 'corpus-three-slots|three-slots-split|part.bounds' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -30
