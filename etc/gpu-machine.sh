#!/usr/bin/env bash
# Build, test and measure on the GPU machine (NVIDIA + PoCL), in one call of the device tool:
#   source .device/env.sh && etc/gpu-machine.sh [bench sizes] [bench list]
# Logs and results go to $OUT (or /tmp/hetero-out).
set -uo pipefail
out=${OUT:-/tmp/hetero-out}; mkdir -p "$out"
sizes=${1:-SMALL}
benchmarks=${2:-all}
build=/tmp/hetero-build
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  clinfo -l
  cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null &&
    cmake --build $build -j16 2>&1 | grep -E "error|warning: unused" ; echo "build done"
} 2>&1 | tee "$out/build.log"
# The whole test suite, with NVIDIA + PoCL as the two slots, under the machine's (Khronos) loader.
ctest --test-dir $build --output-on-failure -j4 2>&1 | tee "$out/ctest.log" | tail -25
# The virtual device as clinfo shows it with NVIDIA + PoCL.
OCL_ICD_VENDORS=$build/vendors clinfo > "$out/clinfo-hetero.txt" 2>&1; echo "clinfo rc=$?"
grep -E "Device Name|Device Version|Device Type|Max compute units|Global memory size" "$out/clinfo-hetero.txt" | head
# Benchmarks: native GPU, native CPU, Hetero held to the GPU, Hetero.
timeout 420 python3 bench/run --build $build --sizes "$sizes" --benchmarks "$benchmarks" --repeat 3 \
  --configs native-gpu,native-cpu,hetero-gpu,hetero --out "$out/bench" 2>&1 | tail -40
ls "$out" "$out/bench" 2>/dev/null
