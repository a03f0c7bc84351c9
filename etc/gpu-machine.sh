#!/usr/bin/env bash
# Build, test and measure on the GPU machine (NVIDIA + PoCL), in one call of the device tool:
#   source .device/env.sh && etc/gpu-machine.sh [bench sizes] [bench list] [bench configs]
# Logs and results go to $OUT (or /tmp/hetero-out). Each phase is time-boxed so the whole call
# stays inside the device tool's 10 minutes.
set -uo pipefail
out=${OUT:-/tmp/hetero-out}; mkdir -p "$out"
sizes=${1:-STANDARD}
benchmarks=${2:-all}
configs=${3:-native-gpu,native-cpu,hetero-gpu,hetero}
build=/tmp/hetero-build
start=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null &&
    cmake --build $build -j16 2>&1 | grep -E "error|Error"; echo "build done after $(( $(date +%s) - start )) s"
} 2>&1 | tee "$out/build.log"
# The ICD and split tests and every PolyBench program through Hetero, with NVIDIA + PoCL as the two
# slots, under the machine's (Khronos) loader.
timeout 200 ctest --test-dir $build -R "${CTEST_FILTER:-^icd\.|^bench\..*\.hetero$}" --output-on-failure -j6 --timeout 150 \
  > "$out/ctest.log" 2>&1; echo "ctest rc=$? after $(( $(date +%s) - start )) s"
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest.log" | head -30
# The virtual device as clinfo shows it with NVIDIA + PoCL.
OCL_ICD_FILENAMES=$build/icd/libHeteroOpenCL.so.1 OCL_ICD_VENDORS=$build/vendors clinfo > "$out/clinfo-hetero.txt" 2>&1
echo "clinfo rc=$?"
grep -E "Platform Name|Device Name|Device Version|Device Type|Max compute units|Global memory size|Max work group size" "$out/clinfo-hetero.txt" | head -12
# What one launch costs natively and through Hetero (held to the GPU, GPU + CPU), side by side.
timeout 120 python3 bench/tools/launch_cost.py --build $build --rounds 3 > "$out/launch_cost.md" 2>"$out/launch_cost.log"
echo "launch_cost rc=$? after $(( $(date +%s) - start )) s"; cat "$out/launch_cost.md"
# Benchmarks for what is left of the call.
left=$(( 560 - ($(date +%s) - start) ))
[ $left -gt 30 ] && timeout $left python3 bench/run --build $build --sizes "$sizes" --benchmarks "$benchmarks" \
  --repeat 3 --configs "$configs" --out "$out/bench" > "$out/bench.log" 2>&1
echo "bench rc=$? after $(( $(date +%s) - start )) s"
tail -5 "$out/bench.log"
cp "$out/bench/results.md" "$out/results.md" 2>/dev/null; cat "$out/results.md" 2>/dev/null | head -60
